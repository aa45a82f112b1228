import { describe, expect, it } from 'vitest';
import { login, nextIp, receiveCode, sessionCookie } from '../auth/test-helpers.ts';
import {
  balance,
  ETH_ADDRESS,
  fund,
  get,
  key,
  newUser,
  post,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';
import { UNFREEZE_HOLD_MS } from './freeze.ts';
import { closedWhileFrozen } from './freeze-guard.ts';

/** Issue 31: self-service freeze, its mail link, and the unfreeze with its 24 h hold. */
const h = useWalletHarness();
const MINUTE = 60_000;
const ETH = 10n ** 18n;

async function withdraw(user: WalletUser) {
  return post(h, user, '/api/wallet/withdrawals', {
    coin: 'ETH',
    network: 'ethereum',
    address: ETH_ADDRESS,
    amountMinor: (ETH / 10n).toString(),
    idempotencyKey: key(),
    emailCode: await withdrawCode(h, user),
  });
}

async function signIn(user: WalletUser): Promise<WalletUser> {
  const res = await login(h, user.email, user.password);
  expect(res.statusCode).toBe(200);
  return { ...user, cookie: sessionCookie(res) };
}

const freeze = (user: WalletUser) => post(h, user, '/api/me/security/freeze', {});

type Doc = { paths: Record<string, Record<string, { tags?: string[] }>> };
/** Tags whose changes move value or say where it goes. */
const MONEY_TAGS = new Set(['wallet', 'exchange', 'ramp', 'convert', 'payouts', 'rewards']);

describe('freeze', () => {
  it('ends every session and refuses every money operation of the OpenAPI document with ACCOUNT_FROZEN', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'USDT', 10_000_000n);
    const second = await signIn(user);
    expect((await freeze(user)).statusCode).toBe(204);
    for (const u of [user, second]) expect((await get(h, u, '/api/me')).statusCode).toBe(401);
    const audit = await h.db
      .selectFrom('audit_events')
      .select('details')
      .where('user_id', '=', user.user.id)
      .where('event', '=', 'account_frozen')
      .execute();
    expect(audit).toHaveLength(1);

    // The owner may sign in again (to read, and to unfreeze), but nothing changes.
    const back = await signIn(user);
    expect((await get(h, back, '/api/me/security/freeze')).json()).toMatchObject({ frozen: true, thawsAt: null });
    const doc = h.app.swagger() as unknown as Doc;
    const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method, op]) => method !== 'get' && (op.tags ?? []).some((t) => MONEY_TAGS.has(t)))
        .filter(([, op]) => !(op.tags ?? []).includes('webhooks'))
        .map(([method]) => ({ method: method.toUpperCase(), path })),
    );
    const probed = operations.filter((op) => closedWhileFrozen(op.method, op.path));
    // Left open: the provider's webhook (no user) and "I have transferred" (it only matches the click
    // against deposits; nothing moves, and a frozen owner must not read it as deposits refused).
    expect(
      operations
        .filter((op) => !probed.includes(op))
        .map((op) => op.path)
        .sort(),
    ).toEqual(['/api/ramp/webhooks/moonpay', '/api/wallet/deposits/confirm-click']);
    expect(probed.length).toBeGreaterThanOrEqual(15);
    for (const op of probed) {
      const url = op.path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000001');
      const res = await h.app.inject({
        method: op.method as 'POST',
        url,
        remoteAddress: nextIp(),
        headers: { cookie: back.cookie },
        payload: {},
      });
      expect([res.statusCode, res.json().code], `${op.method} ${op.path}`).toEqual([423, 'ACCOUNT_FROZEN']);
    }
    expect(await balance(h, back, 'USDT')).toEqual({ available: 10_000_000n, locked: 0n });
  });

  it('cancels the own withdrawal waiting for review (amount back), and a withdrawal after it is refused', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    const placed = await withdraw(user);
    expect(placed.statusCode, placed.body).toBe(201);
    expect((await balance(h, user, 'ETH')).locked).toBe(ETH / 10n);
    expect((await freeze(user)).statusCode).toBe(204);
    const row = await h.db
      .selectFrom('withdrawals')
      .select(['state', 'reason'])
      .where('id', '=', placed.json().id)
      .executeTakeFirstOrThrow();
    // Auto-approved or in review, it had not been signed: rejected, the lock released.
    expect(row).toEqual({ state: 'review_rejected', reason: 'account_frozen' });
    const back = await signIn(user);
    expect(await balance(h, back, 'ETH')).toEqual({ available: ETH, locked: 0n });
  });

  it('the link of a security mail freezes without a session, any number of times; a made-up token does not', async () => {
    const user = await newUser(h);
    const before = h.sink.messages.length;
    // Changing the password sends a notice carrying the link.
    const changed = await post(h, user, '/api/me/password', {
      oldPassword: user.password,
      password: 'An0ther-Pass!',
      confirmPassword: 'An0ther-Pass!',
    });
    expect(changed.statusCode, changed.body).toBe(204);
    const mail = await h.sink.waitFor(user.email, { after: before });
    const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    const token = /\/freeze#t=([A-Za-z0-9_-]{22})/.exec(text)?.[1];
    expect(token).toBeDefined();
    const use = (t: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/security/freeze-link',
        remoteAddress: nextIp(),
        payload: { token: t },
      });
    expect((await use('A'.repeat(22))).statusCode).toBe(404);
    expect((await use(token as string)).statusCode).toBe(204);
    expect((await use(token as string)).statusCode).toBe(204);
    expect((await get(h, user, '/api/me')).statusCode).toBe(401);
    const frozen = await h.db
      .selectFrom('account_freezes')
      .selectAll()
      .where('user_id', '=', user.user.id)
      .executeTakeFirstOrThrow();
    expect(frozen.via).toBe('mail_link');
  });

  it('unfreeze needs the password and an e-mail code, then waits 24 h: frozen at 23:59, free at 24:01', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    expect((await freeze(user)).statusCode).toBe(204);
    const back = await signIn(user);
    const code = async () => {
      h.clock.advance(1000);
      return receiveCode(h, { purpose: 'unfreeze', cookie: back.cookie, to: user.email });
    };
    const unfreeze = (payload: object) => post(h, back, '/api/me/security/freeze/unfreeze', payload);
    const wrongPassword = await unfreeze({ password: 'Wr0ng-Pass!!', emailCode: await code() });
    expect(wrongPassword.json().code).toBe('WRONG_PASSWORD');
    const wrongCode = await unfreeze({ password: user.password, emailCode: '000000' });
    expect(wrongCode.json().code).toMatch(/WRONG_VERIFICATION_CODE|VERIFICATION_CODE_EXPIRED/);
    const asked = await unfreeze({ password: user.password, emailCode: await code() });
    expect(asked.statusCode, asked.body).toBe(200);
    const thawsAt = new Date(asked.json().thawsAt as string);
    expect(thawsAt.getTime() - h.clock.now().getTime()).toBe(UNFREEZE_HOLD_MS);

    // Sessions idle out over a day: sign in again at each instant.
    h.clock.set(new Date(thawsAt.getTime() - MINUTE));
    const still = await withdraw(await signIn(user));
    expect(still.statusCode).toBe(423);
    expect(still.json().code).toBe('ACCOUNT_FROZEN');
    expect(still.json().details.retryAfterSeconds).toBeLessThanOrEqual(60);

    h.clock.set(new Date(thawsAt.getTime() + MINUTE));
    const later = await signIn(user);
    expect((await get(h, later, '/api/me/security/freeze')).json()).toMatchObject({ frozen: false });
    const free = await withdraw(later);
    expect(free.json().code).not.toBe('ACCOUNT_FROZEN');
    expect(free.statusCode, free.body).toBe(201);
  });

  it('freezing again during the hold cancels the unfreeze ("this was not me")', async () => {
    const user = await newUser(h);
    expect((await freeze(user)).statusCode).toBe(204);
    const back = await signIn(user);
    h.clock.advance(1000);
    const emailCode = await receiveCode(h, { purpose: 'unfreeze', cookie: back.cookie, to: user.email });
    const asked = await post(h, back, '/api/me/security/freeze/unfreeze', { password: user.password, emailCode });
    expect(asked.statusCode).toBe(200);
    expect((await freeze(back)).statusCode).toBe(204);
    h.clock.advance(UNFREEZE_HOLD_MS + MINUTE);
    const again = await signIn(user);
    expect((await get(h, again, '/api/me/security/freeze')).json()).toMatchObject({ frozen: true, thawsAt: null });
  });
});
