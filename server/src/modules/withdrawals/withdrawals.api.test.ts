import { describe, expect, it } from 'vitest';
import { login, receiveCode, sessionCookie } from '../auth/test-helpers.ts';
import { resolveAlert } from '../deposits/reorg-alerts.ts';
import { insertBareOrder } from '../exchange/test-helpers.ts';
import { rejectWithdrawal } from './moves.ts';
import {
  approveForTest,
  balance,
  ETH_ADDRESS,
  fund,
  get,
  key,
  newUser,
  post,
  TEST_HOT_WALLET,
  TEST_REVIEWER,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from './test-helpers.ts';

const h = useWalletHarness();
const ETH = 10n ** 18n;

async function withdraw(user: WalletUser, body: Record<string, unknown>, code?: string) {
  return post(h, user, '/api/wallet/withdrawals', {
    coin: 'ETH',
    network: 'ethereum',
    address: ETH_ADDRESS,
    amountMinor: (ETH / 10n).toString(),
    idempotencyKey: key(),
    emailCode: code ?? (await withdrawCode(h, user)),
    ...body,
  });
}

describe('GET /api/catalogue', () => {
  it('lists coins, networks and pairs with decimal-string limits; withdrawals only where a signer can broadcast', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/api/catalogue' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.coins).toHaveLength(8);
    expect(body.networks.map((n: { code: string }) => n.code)).toEqual([
      'bitcoin',
      'ethereum',
      'bsc',
      'tron',
      'dogecoin',
    ]);
    const pair = (coin: string, network: string) =>
      body.pairs.find((p: { coin: string; network: string }) => p.coin === coin && p.network === network);
    expect(pair('ETH', 'ethereum')).toMatchObject({
      withdrawEnabled: true,
      tokenContract: null,
      withdrawFeeMinor: '2000000000000000',
    });
    expect(pair('USDT', 'ethereum')).toMatchObject({
      withdrawEnabled: true,
      tokenContract: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
      confirmations: 6,
      minDepositMinor: '1000',
    });
    expect(pair('USDT', 'tron')).toMatchObject({ withdrawEnabled: false, tokenContract: null, confirmations: 1 });
    expect(pair('TUSD', 'ethereum')).toMatchObject({ withdrawEnabled: false }); // no contract deployed
    expect(pair('BTC', 'bitcoin').withdrawEnabled).toBe(false);
  });
});

describe('POST /api/wallet/withdrawals', () => {
  it('locks the amount and auto-approves under the 24-hour limit; arrival = amount - fee', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', 2n * ETH);
    const res = await withdraw(user, {});
    expect(res.statusCode, res.body).toBe(201);
    const w = res.json();
    expect(w).toMatchObject({
      state: 'review_approved',
      amountMinor: (ETH / 10n).toString(),
      feeMinor: '2000000000000000',
    });
    expect(BigInt(w.arrivalMinor)).toBe(ETH / 10n - 2_000_000_000_000_000n);
    expect(await balance(h, user, 'ETH')).toEqual({ available: 2n * ETH - ETH / 10n, locked: ETH / 10n });
    const again = await get(h, user, `/api/wallet/withdrawals/${w.id}`);
    expect(again.json()).toEqual(w);
  });

  it('is idempotent on the key: a retry returns the same withdrawal without a new code; other contents are refused', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    const idempotencyKey = key();
    const first = await withdraw(user, { idempotencyKey });
    expect(first.statusCode).toBe(201);
    const retry = await withdraw(user, { idempotencyKey }, '000000');
    expect(retry.statusCode).toBe(201);
    expect(retry.json().id).toBe(first.json().id);
    expect(await balance(h, user, 'ETH')).toEqual({ available: ETH - ETH / 10n, locked: ETH / 10n });
    const other = await withdraw(user, { idempotencyKey, amountMinor: (ETH / 5n).toString() }, '000000');
    expect(other.json().code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it.each([
    ['a TRON address on ethereum', { address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' }, 'ADDRESS_INVALID'],
    ['a broken EIP-55 checksum', { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD' }, 'ADDRESS_INVALID'],
    [
      'a bitcoin address on bsc',
      { network: 'bsc', coin: 'USDT', address: 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4' },
      'ADDRESS_INVALID',
    ],
    [
      'the zero address (burns the coins)',
      { address: '0x0000000000000000000000000000000000000000' },
      'ADDRESS_INVALID',
    ],
    ['a precompile', { address: '0x0000000000000000000000000000000000000009' }, 'ADDRESS_INVALID'],
    ["the platform's hot wallet", { address: TEST_HOT_WALLET }, 'ADDRESS_INVALID'],
    ['a token contract', { address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }, 'ADDRESS_INVALID'],
    [
      'a token contract, lower case, on bsc',
      { network: 'bsc', coin: 'USDT', address: '0x5fbdb2315678afecb367f032d93f642f64180aa3', amountMinor: '5000000' },
      'ADDRESS_INVALID',
    ],
    ['below the minimum', { amountMinor: (ETH / 1000n).toString() }, 'AMOUNT_BELOW_MINIMUM'],
    ['above the maximum', { amountMinor: (1001n * ETH).toString() }, 'AMOUNT_ABOVE_MAXIMUM'],
    ['above the available balance', { amountMinor: (2n * ETH).toString() }, 'AMOUNT_EXCEEDS_AVAILABLE'],
    [
      'a network without a signer',
      { coin: 'USDT', network: 'tron', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', amountMinor: '5000000' },
      'WITHDRAW_DISABLED',
    ],
    ['a coin not on the network', { coin: 'BTC', network: 'ethereum' }, 'VALIDATION_FAILED'],
    ['a malformed amount', { amountMinor: '1.5' }, 'VALIDATION_FAILED'],
    ['a wrong e-mail code', { emailCode: '000000' }, 'WRONG_VERIFICATION_CODE'],
  ])('refuses %s', async (_name, body, code) => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    await fund(h, user.user.id, 'USDT', 100_000_000n);
    if (code === 'WRONG_VERIFICATION_CODE') await withdrawCode(h, user);
    const res = await withdraw(user, body, code === 'WRONG_VERIFICATION_CODE' ? undefined : '123456');
    expect(res.json().code).toBe(code);
    expect(res.statusCode).toBe(code === 'WITHDRAW_DISABLED' ? 409 : 400);
    expect((await balance(h, user, 'ETH')).locked).toBe(0n);
  });

  it('refuses while a deep-reorg alert holds the user (WITHDRAW_FROZEN, code kept), and accepts once it is resolved', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    const alert = await h.db
      .insertInto('reorg_alerts')
      .values({ network: 'ethereum', fork_block: '100', deposits: 1, created_at: new Date() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('withdrawal_freezes')
      .values({ user_id: user.user.id, alert_id: alert.id, created_at: new Date() })
      .execute();
    const code = await withdrawCode(h, user);
    const refused = await withdraw(user, {}, code);
    expect(refused.statusCode).toBe(423);
    expect(refused.json().code).toBe('WITHDRAW_FROZEN');
    expect((await balance(h, user, 'ETH')).locked).toBe(0n);
    expect(await resolveAlert(h.db, alert.id, 'coins arrived again in block 131', new Date())).toBe(true);
    expect((await withdraw(user, {}, code)).statusCode).toBe(201);
  });

  it('refuses a code that was never sent (VERIFICATION_CODE_NOT_REQUESTED) and a used code', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    expect((await withdraw(user, {}, '123456')).json().code).toBe('VERIFICATION_CODE_NOT_REQUESTED');
    const code = await withdrawCode(h, user);
    expect((await withdraw(user, {}, code)).statusCode).toBe(201);
    expect((await withdraw(user, {}, code)).json().code).toBe('VERIFICATION_CODE_EXPIRED');
  });

  it('asks for the fund password once one is set, and checks it', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    const setCode = await receiveCode(h, { purpose: 'fund_password', cookie: user.cookie, to: user.email });
    const set = await post(h, user, '/api/me/fund-password', {
      code: setCode,
      fundPassword: '135790',
      confirmFundPassword: '135790',
    });
    expect(set.statusCode, set.body).toBe(204);
    // A first fund password holds outflows for a day (outflow-holds.ts); the session idles out meanwhile.
    h.clock.advance(24 * 3_600_000 + 1000);
    user.cookie = sessionCookie(await login(h, user.username, user.password));
    const missing = await withdraw(user, {});
    expect(missing.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'fundPassword' }] });
    expect((await withdraw(user, { fundPassword: '111111' })).json().code).toBe('WRONG_FUND_PASSWORD');
    const ok = await withdraw(user, { fundPassword: '135790' });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('keeps withdrawals above the 24-hour limit in review; an operator approves or rejects (funds returned)', async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', 20n * ETH);
    const big = await withdraw(user, { amountMinor: (6n * ETH).toString() });
    expect(big.json().state).toBe('in_review');
    const small = await withdraw(user, { amountMinor: ETH.toString() });
    expect(small.json().state).toBe('in_review'); // 6 + 1 ETH > 5 ETH within 24 h
    // A review always names its operator (a rejection with a blank name is refused); an approval goes
    // through four-eyes.ts, which names the operator on the decision (approveForTest).
    await expect(
      h.db
        .transaction()
        .execute((trx) => rejectWithdrawal(trx, small.json().id, 'x', h.clock.now(), { operatorId: '', name: ' ' })),
    ).rejects.toThrow(/reviewer/);
    await h.db
      .transaction()
      .execute((trx) =>
        rejectWithdrawal(trx, big.json().id, 'address on a sanctions list', h.clock.now(), TEST_REVIEWER),
      );
    await h.db.transaction().execute((trx) => approveForTest(trx, small.json().id, h.clock.now()));
    const reviewed = await h.db
      .selectFrom('withdrawals')
      .select('reviewed_by')
      .where('id', 'in', [big.json().id, small.json().id])
      .execute();
    expect(reviewed.map((r) => r.reviewed_by)).toEqual([TEST_REVIEWER.name, TEST_REVIEWER.name]);
    expect((await get(h, user, `/api/wallet/withdrawals/${big.json().id}`)).json()).toMatchObject({
      state: 'review_rejected',
      reason: 'address on a sanctions list',
    });
    expect((await get(h, user, `/api/wallet/withdrawals/${small.json().id}`)).json().state).toBe('review_approved');
    expect(await balance(h, user, 'ETH')).toEqual({ available: 19n * ETH, locked: ETH });
    // The user is told, in the mail tab's system notices, with the reason.
    const notices = await h.app.inject({ method: 'GET', url: '/api/notices/system', headers: { cookie: user.cookie } });
    expect(notices.json().items).toEqual([
      expect.objectContaining({
        kind: 'withdrawal_rejected',
        params: expect.objectContaining({ reason: 'address on a sanctions list', withdrawalId: big.json().id }),
      }),
    ]);
    // Rejected ones do not count: 1 ETH + 1 ETH is under the limit again.
    expect((await withdraw(user, { amountMinor: ETH.toString() })).json().state).toBe('review_approved');
  });

  it("refuses an exchange order's deposit address: the coins would loop into our own books", async () => {
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    const orderId = await insertBareOrder(h.db, user.user.id, h.clock.now());
    const depositAddress = '0x90F79bf6EB2c4f870365E785982E1f101E93b906';
    await h.db
      .updateTable('exchange_orders')
      .set({ deposit_address: depositAddress, send_network: 'ethereum' })
      .where('id', '=', orderId)
      .execute();
    const res = await withdraw(user, { address: depositAddress.toLowerCase() }, '123456');
    expect(res.json().code).toBe('ADDRESS_INVALID');
    expect((await balance(h, user, 'ETH')).locked).toBe(0n);
  });

  it("hides other users' withdrawals", async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'ETH', ETH);
    const w = (await withdraw(a, {})).json();
    expect((await get(h, b, `/api/wallet/withdrawals/${w.id}`)).statusCode).toBe(404);
  });

  it('needs a session', async () => {
    const res = await h.app.inject({ method: 'POST', url: '/api/wallet/withdrawals/email-code', payload: {} });
    expect(res.statusCode).toBe(401);
  });
});
