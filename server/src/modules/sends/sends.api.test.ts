import { describe, expect, it } from 'vitest';
import {
  balance,
  fund,
  get,
  key,
  newUser,
  post,
  transferCode,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';

const h = useWalletHarness();

async function send(user: WalletUser, body: Record<string, unknown>, code?: string) {
  return post(h, user, '/api/wallet/sends', {
    coin: 'USDT',
    amountMinor: '1500000',
    recipientKind: 'email',
    idempotencyKey: key(),
    emailCode: code ?? (await transferCode(h, user)),
    ...body,
  });
}

describe('POST /api/wallet/sends', () => {
  it('moves the amount instantly by e-mail, without a fee; both sides see it', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    const res = await send(a, { recipient: b.email.toUpperCase() });
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json();
    expect(s).toMatchObject({
      direction: 'out',
      coin: 'USDT',
      amountMinor: '1500000',
      recipient: b.email,
      network: null,
    });
    expect(await balance(h, a, 'USDT')).toEqual({ available: 8_500_000n, locked: 0n });
    expect(await balance(h, b, 'USDT')).toEqual({ available: 1_500_000n, locked: 0n });
    expect((await get(h, b, `/api/wallet/sends/${s.id}`)).json()).toMatchObject({ direction: 'in', recipient: null });
    const c = await newUser(h);
    expect((await get(h, c, `/api/wallet/sends/${s.id}`)).statusCode).toBe(404);
  });

  it("sends to a user's deposit address (any EVM spelling of it)", async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    const address = '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359';
    await h.db
      .insertInto('deposit_addresses')
      .values({ user_id: b.user.id, network: 'ethereum', address, derivation_index: 9_000 })
      .execute();
    const res = await send(a, { recipientKind: 'address', network: 'ethereum', recipient: address.toLowerCase() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ recipientKind: 'address', recipient: address, network: 'ethereum' });
    expect((await balance(h, b, 'USDT')).available).toBe(1_500_000n);
  });

  it('is idempotent on the key', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    const idempotencyKey = key();
    const first = await send(a, { recipient: b.email, idempotencyKey });
    const retry = await send(a, { recipient: b.email, idempotencyKey }, '000000');
    expect(retry.json().id).toBe(first.json().id);
    expect((await balance(h, b, 'USDT')).available).toBe(1_500_000n);
    expect((await send(a, { recipient: b.email, idempotencyKey, amountMinor: '7' }, '000000')).json().code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it.each([
    ['an unknown e-mail', { recipient: 'nobody@example.com' }, 'RECIPIENT_NOT_FOUND', 404],
    [
      'an address of nobody',
      { recipientKind: 'address', network: 'ethereum', recipient: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      'RECIPIENT_NOT_FOUND',
      404,
    ],
    [
      'an invalid address',
      { recipientKind: 'address', network: 'tron', recipient: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      'ADDRESS_INVALID',
      400,
    ],
    [
      'an address of nobody, without its network',
      { recipientKind: 'address', recipient: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
      'RECIPIENT_NOT_FOUND',
      404,
    ],
    ['more than the available balance', { amountMinor: '10000001' }, 'AMOUNT_EXCEEDS_AVAILABLE', 400],
    ['a zero amount', { amountMinor: '0' }, 'VALIDATION_FAILED', 400],
  ])('refuses %s', async (_name, body, code, status) => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    const res = await send(a, { recipient: b.email, ...body }, '123456');
    expect(res.json().code).toBe(code);
    expect(res.statusCode).toBe(status);
    expect((await balance(h, a, 'USDT')).available).toBe(10_000_000n);
  });

  it('refuses a send to oneself and a wrong code', async () => {
    const a = await newUser(h);
    await fund(h, a.user.id, 'USDT', 10_000_000n);
    expect((await send(a, { recipient: a.email }, '123456')).json().code).toBe('SEND_TO_SELF');
    const b = await newUser(h);
    await transferCode(h, a);
    expect((await send(a, { recipient: b.email }, '000000')).json().code).toBe('WRONG_VERIFICATION_CODE');
    // A code e-mailed for a withdrawal does not authorise a transfer.
    expect((await send(a, { recipient: b.email }, await withdrawCode(h, a))).json().code).toBe(
      'WRONG_VERIFICATION_CODE',
    );
  });
});

describe('POST /api/wallet/sends/recipient: checked while the form is filled, before any code', () => {
  const check = (user: WalletUser, body: object) => post(h, user, '/api/wallet/sends/recipient', body);

  it('finds a user by e-mail (masked) or by deposit address, its network found from the address', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    const mailsBefore = h.sink.messages.length;
    const byEmail = await check(a, { recipientKind: 'email', recipient: b.email.toUpperCase() });
    expect(byEmail.statusCode, byEmail.body).toBe(200);
    expect(byEmail.json()).toEqual({
      recipientKind: 'email',
      recipient: expect.stringMatching(/\*\*\*@example\.com$/),
      network: null,
    });
    const address = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';
    await h.db
      .insertInto('deposit_addresses')
      .values({ user_id: b.user.id, network: 'bsc', address, derivation_index: 9_001 })
      .execute();
    const byAddress = await check(a, { recipientKind: 'address', recipient: address.toLowerCase() });
    expect(byAddress.json()).toEqual({ recipientKind: 'address', recipient: address, network: 'bsc' });
    // Checking sends no mail: no code is involved yet.
    expect(h.sink.messages.length).toBe(mailsBefore);
  });

  it.each([
    ['oneself', 'self', 'SEND_TO_SELF', 400],
    ['an unknown e-mail', 'nobody@example.com', 'RECIPIENT_NOT_FOUND', 404],
  ])('refuses %s', async (_name, recipient, code, status) => {
    const a = await newUser(h);
    const res = await check(a, { recipientKind: 'email', recipient: recipient === 'self' ? a.email : recipient });
    expect([res.statusCode, res.json().code]).toEqual([status, code]);
  });

  it('refuses an address of no network', async () => {
    const a = await newUser(h);
    const res = await check(a, { recipientKind: 'address', recipient: 'not-an-address' });
    expect(res.json().code).toBe('ADDRESS_INVALID');
  });
});
