import { describe, expect, it } from 'vitest';
import { TEST_CONSOLE_ORIGIN } from '../../test/app.ts';
import { listAudit } from '../audit/repository.ts';
import { nextIp, registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { SoftAuthenticator, unsignedSignature } from '../security/soft-authenticator.ts';
import { totpCode } from '../security/totp.ts';
import { createOperatorAccounts } from './accounts-service.ts';
import { addTestOperator, type TestOperator } from './test-helpers.ts';

/**
 * Issue 32: operators sign in with a passkey alone, bound to the console's origin and host name (not
 * the app's); adding one needs a step-up (an authenticator code, or a session opened minutes ago). The
 * attacks: a replayed answer, another origin, another browser's challenge, a disabled operator's key, a
 * counter that went backwards (a cloned key), a user's passkey presented at the console.
 */
const h = useAuthHarness();
const deps = () => ({ db: h.db, now: h.clock.now });
const as = (cookie: string) => ({ cookie });
const post = (url: string, headers: Record<string, string>, payload: object) =>
  h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers, payload });

function cookieOf(response: { headers: Record<string, unknown> }, name: string): string {
  const header = response.headers['set-cookie'];
  for (const c of Array.isArray(header) ? header : [header]) {
    const match = typeof c === 'string' ? new RegExp(`^(${name})=([^;]+)`).exec(c) : null;
    if (match) return `${match[1]}=${match[2]}`;
  }
  throw new Error(`no ${name} cookie in ${JSON.stringify(header)}`);
}

/** Enrols `name` (its session is fresh: no code needed) and adds a passkey on a console authenticator. */
async function operatorWithPasskey(name: string, key = new SoftAuthenticator(TEST_CONSOLE_ORIGIN)) {
  const op = await addTestOperator(h.app, deps(), name, ['finance']);
  const options = await post('/api/ops/me/passkeys/options', as(op.cookie), {});
  expect(options.statusCode, options.body).toBe(200);
  expect(options.json().rp.id).toBe('localhost');
  const added = await post('/api/ops/me/passkeys', as(op.cookie), {
    name: 'YubiKey',
    response: key.register(options.json()),
  });
  expect(added.statusCode, added.body).toBe(201);
  return { ...op, key, passkeyId: added.json().id as string };
}

/** Options of a passkey sign-in: the challenge and the nonce cookie of this "browser". */
async function signInOptions() {
  const res = await post('/api/ops/passkey/options', {}, {});
  expect(res.statusCode, res.body).toBe(200);
  return { options: res.json(), nonce: cookieOf(res, 'ops_pk_nonce') };
}

const signIn = (nonce: string | undefined, response: object) =>
  post('/api/ops/passkey/session', nonce ? { cookie: nonce } : {}, { response });

describe('operator passkeys', () => {
  it('an operator adds one right after enrolment, then signs in with it alone (no password, no code)', async () => {
    const op = await operatorWithPasskey('pk_alice');
    const list = await h.app.inject({ method: 'GET', url: '/api/ops/me/passkeys', headers: as(op.cookie) });
    expect(list.json().passkeys).toMatchObject([{ id: op.passkeyId, name: 'YubiKey', suspended: false }]);
    const { options, nonce } = await signInOptions();
    expect(options.rpId).toBe('localhost');
    const res = await signIn(nonce, op.key.authenticate(options));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ operator: { name: 'pk_alice', roles: ['finance'] } });
    const session = cookieOf(res, 'ops_sid');
    const who = await h.app.inject({ method: 'GET', url: '/api/ops/session', headers: as(session) });
    expect(who.json().operator.name).toBe('pk_alice');
    const events = (await listAudit(h.db)).filter((e) => e.details.operatorId === op.id).map((e) => e.event);
    expect(events).toContain('operator_passkey_added');
    const signedIn = (await listAudit(h.db)).filter((e) => e.event === 'operator_signed_in' && e.details.method);
    expect(signedIn.at(-1)?.details).toMatchObject({ method: 'passkey', passkeyId: op.passkeyId });
  });

  it('adding one later needs a fresh authenticator code (step-up), valid once', async () => {
    const op: TestOperator = await addTestOperator(h.app, deps(), 'pk_later', ['support']);
    h.clock.advance(6 * 60_000);
    const bare = await post('/api/ops/me/passkeys/options', as(op.cookie), {});
    expect(bare.json().code).toBe('REAUTH_REQUIRED');
    expect((await post('/api/ops/me/passkeys/options', as(op.cookie), { totpCode: '000000' })).json().code).toBe(
      'WRONG_FACTOR_CODE',
    );
    const code = totpCode(op.secret, h.clock.now());
    const ok = await post('/api/ops/me/passkeys/options', as(op.cookie), { totpCode: code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await post('/api/ops/me/passkeys/options', as(op.cookie), { totpCode: code })).json().code).toBe(
      'WRONG_FACTOR_CODE',
    );
  });

  it('refuses a replayed answer, another browser, an answer made on the app origin, a registration made there', async () => {
    const op = await operatorWithPasskey('pk_bob');
    const first = await signInOptions();
    const answer = op.key.authenticate(first.options);
    expect((await signIn(first.nonce, answer)).statusCode).toBe(200);
    // The same answer again: its challenge is spent.
    expect((await signIn(first.nonce, answer)).json().code).toBe('PASSKEY_CHALLENGE_INVALID');
    // An answer to a challenge issued to another browser (another nonce), or with none.
    const victim = await signInOptions();
    const attacker = await signInOptions();
    expect((await signIn(attacker.nonce, op.key.authenticate(victim.options))).json().code).toBe(
      'PASSKEY_CHALLENGE_INVALID',
    );
    expect((await signIn(undefined, op.key.authenticate(victim.options))).json().code).toBe(
      'PASSKEY_CHALLENGE_INVALID',
    );
    // Made on the app's pages (same RP ID in development, another origin): refused.
    const app = await signInOptions();
    const elsewhere = op.key.authenticate(app.options, { origin: 'http://127.0.0.1:8080' });
    expect((await signIn(app.nonce, elsewhere)).json().code).toBe('PASSKEY_REJECTED');
    const options = await post('/api/ops/me/passkeys/options', as(op.cookie), {});
    const foreign = op.key.register(options.json(), 'http://localhost:8080');
    const added = await post('/api/ops/me/passkeys', as(op.cookie), { name: 'Other', response: foreign });
    expect(added.json().code).toBe('PASSKEY_REJECTED');
  });

  it("a disabled operator's passkey opens nothing; a removed one neither", async () => {
    const op = await operatorWithPasskey('pk_carol');
    const other = await operatorWithPasskey('pk_dave');
    await createOperatorAccounts(deps()).disable({ kind: 'cli' }, op.id);
    const a = await signInOptions();
    expect((await signIn(a.nonce, op.key.authenticate(a.options))).json().code).toBe('PASSKEY_REJECTED');
    const removed = await h.app.inject({
      method: 'DELETE',
      url: `/api/ops/me/passkeys/${other.passkeyId}`,
      headers: as(other.cookie),
    });
    expect(removed.statusCode, removed.body).toBe(204);
    const b = await signInOptions();
    expect((await signIn(b.nonce, other.key.authenticate(b.options))).json().code).toBe('PASSKEY_REJECTED');
    const failed = (await listAudit(h.db)).filter((e) => e.event === 'operator_sign_in_failed');
    expect(failed.at(-2)?.details).toMatchObject({ method: 'passkey', operatorId: op.id, reason: 'PASSKEY_REJECTED' });
  });

  it('a new enrolment link voids the passkeys added before it (a compromised operator starts afresh)', async () => {
    const op = await operatorWithPasskey('pk_frank');
    const accounts = createOperatorAccounts(deps());
    const { token } = await accounts.reenrol({ kind: 'cli' }, { id: op.id });
    const a = await signInOptions();
    expect((await signIn(a.nonce, op.key.authenticate(a.options))).json().code).toBe('PASSKEY_REJECTED');
    const start = await post('/api/ops/enrolment/start', {}, { token });
    h.clock.advance(30_000);
    const finish = await post(
      '/api/ops/enrolment/finish',
      {},
      {
        token,
        password: 'Ops-Pass-2030',
        totpCode: totpCode(start.json().secret, h.clock.now()),
      },
    );
    expect(finish.statusCode, finish.body).toBe(200);
    const b = await signInOptions();
    expect((await signIn(b.nonce, op.key.authenticate(b.options))).json().code).toBe('PASSKEY_REJECTED');
    const list = await h.app.inject({
      method: 'GET',
      url: '/api/ops/me/passkeys',
      headers: as(cookieOf(finish, 'ops_sid')),
    });
    expect(list.json().passkeys).toMatchObject([{ id: op.passkeyId, suspended: true }]);
  });

  it('a counter that went backwards suspends the passkey (a cloned key), also for later good answers', async () => {
    const op = await operatorWithPasskey('pk_erin');
    const a = await signInOptions();
    expect((await signIn(a.nonce, op.key.authenticate(a.options, { counter: 5 }))).statusCode).toBe(200);
    const b = await signInOptions();
    expect((await signIn(b.nonce, op.key.authenticate(b.options, { counter: 3 }))).json().code).toBe(
      'PASSKEY_COUNTER_REGRESSED',
    );
    const c = await signInOptions();
    expect((await signIn(c.nonce, op.key.authenticate(c.options, { counter: 9 }))).json().code).toBe(
      'PASSKEY_REJECTED',
    );
    const list = await h.app.inject({ method: 'GET', url: '/api/ops/me/passkeys', headers: as(op.cookie) });
    expect(list.json().passkeys[0].suspended).toBe(true);
    expect((await listAudit(h.db)).some((e) => e.event === 'operator_passkey_counter_regressed')).toBe(true);
  });

  it('an unsigned answer with a lower counter is a plain refusal: the passkey stays usable, nothing audited', async () => {
    // Review M1: the credential id is not secret and the sign-in options need no password.
    const op = await operatorWithPasskey('pk_faye');
    const a = await signInOptions();
    expect((await signIn(a.nonce, op.key.authenticate(a.options, { counter: 5 }))).statusCode).toBe(200);
    const b = await signInOptions();
    const forged = op.key.authenticate(b.options, { counter: 0 });
    forged.response.signature = unsignedSignature();
    expect((await signIn(b.nonce, forged)).json().code).toBe('PASSKEY_REJECTED');
    const row = await h.db
      .selectFrom('operator_passkeys')
      .selectAll()
      .where('id', '=', op.passkeyId)
      .executeTakeFirst();
    expect(row?.suspended_at).toBeNull();
    const regressed = (await listAudit(h.db)).filter(
      (e) => e.event === 'operator_passkey_counter_regressed' && JSON.stringify(e.details).includes(op.passkeyId),
    );
    expect(regressed).toEqual([]);
    const c = await signInOptions();
    expect((await signIn(c.nonce, op.key.authenticate(c.options, { counter: 6 }))).statusCode).toBe(200);
  });

  it("a user's passkey (the app's) is unknown at the console, even on the console's origin", async () => {
    const user = await registerUser(h);
    const key = new SoftAuthenticator('http://localhost:8080');
    const options = await post('/api/me/security/passkeys/options', { cookie: user.cookie }, {});
    expect(options.statusCode, options.body).toBe(200);
    const added = await post(
      '/api/me/security/passkeys',
      { cookie: user.cookie },
      {
        name: 'Phone',
        response: key.register(options.json()),
      },
    );
    expect(added.statusCode, added.body).toBe(201);
    const a = await signInOptions();
    const answer = key.authenticate(a.options, { origin: TEST_CONSOLE_ORIGIN });
    expect((await signIn(a.nonce, answer)).json().code).toBe('PASSKEY_REJECTED');
  });
});
