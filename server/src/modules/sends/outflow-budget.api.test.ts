import { describe, expect, it } from 'vitest';
import { login, sessionCookie } from '../auth/test-helpers.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import { parseDecimal } from '../prices/rational.ts';
import { placeApprovedPayout } from '../withdrawals/payouts.ts';
import { autoReviewLimits } from '../withdrawals/review-policy.ts';
import {
  balance,
  ETH_ADDRESS,
  fund,
  key,
  newUser,
  post,
  TEST_CHAINS,
  transferCode,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';

/**
 * Issue 38 item 2: sends and withdrawals share one 24-hour review budget measured in USD at the time.
 * Before it, a taken-over account sent everything to mule accounts (sends had no limit) and spread
 * value over every coin's own withdrawal limit by converting first. Budget here: $1,000; USDT at $1,
 * ETH at $2,000 (per-coin limits of 10,000 USDT and 5 ETH would let every step below through).
 */
const USD: Partial<Record<CoinCode, string>> = { USDT: '1', ETH: '2000' };
const prices = {
  price(coin: CoinCode) {
    const p = USD[coin];
    if (!p) throw new PriceUnavailableError();
    return parseDecimal(p);
  },
};
const h = useWalletHarness({
  wallet: {
    chains: () => TEST_CHAINS,
    autoReviewLimits: autoReviewLimits({ ETH: '5', USDT: '10000' }),
    prices,
    outflowBudgetUsdCents: 100_000n,
  },
});

async function send(from: WalletUser, to: WalletUser, coin: CoinCode, amountMinor: bigint) {
  return post(h, from, '/api/wallet/sends', {
    coin,
    amountMinor: amountMinor.toString(),
    recipientKind: 'email',
    recipient: to.email,
    idempotencyKey: key(),
    emailCode: await transferCode(h, from),
  });
}

describe('one USD review budget for sends and withdrawals', () => {
  it('sends up to the budget exactly, refuses one cent more (OUTFLOW_REVIEW_LIMIT), nothing moves', async () => {
    const [a, mule] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 2_000_000_000n);
    expect((await send(a, mule, 'USDT', 600_000_000n)).statusCode).toBe(201);
    expect((await send(a, mule, 'USDT', 400_000_000n)).statusCode).toBe(201);
    const over = await send(a, mule, 'USDT', 10_000n);
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'OUTFLOW_REVIEW_LIMIT', details: { limit: 1000 } });
    expect((await balance(h, a, 'USDT')).available).toBe(1_000_000_000n);
    expect((await balance(h, mule, 'USDT')).available).toBe(1_000_000_000n);
    // A day later the budget is free again (a new session: the old one idled out).
    h.clock.advance(24 * 3_600_000 + 1000);
    a.cookie = sessionCookie(await login(h, a.username, a.password));
    expect((await send(a, mule, 'USDT', 10_000n)).statusCode).toBe(201);
  });

  it('converting first does not spread the value over each coin: USDT then ETH count together', async () => {
    // The account holds what a convert leaves: part USDT, part ETH (each far under its own coin limit).
    const [a, mule] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 600_000_000n);
    await fund(h, a.user.id, 'ETH', 250_000_000_000_000_000n);
    expect((await send(a, mule, 'USDT', 600_000_000n)).statusCode).toBe(201);
    // 0.2 ETH = $400: $1,000 in all, at the budget.
    expect((await send(a, mule, 'ETH', 200_000_000_000_000_000n)).statusCode).toBe(201);
    const over = await send(a, mule, 'ETH', 50_000_000_000_000_000n);
    expect(over.json()).toMatchObject({ code: 'OUTFLOW_REVIEW_LIMIT' });
    expect((await balance(h, a, 'ETH')).available).toBe(50_000_000_000_000_000n);
  });

  it('a withdrawal after sends that used the budget waits for review instead of being auto-approved', async () => {
    const [a, mule] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 2_000_000_000n);
    expect((await send(a, mule, 'USDT', 900_000_000n)).statusCode).toBe(201);
    const small = await post(h, a, '/api/wallet/withdrawals', {
      coin: 'USDT',
      network: 'ethereum',
      address: ETH_ADDRESS,
      amountMinor: '50000000',
      idempotencyKey: key(),
      emailCode: await withdrawCode(h, a),
    });
    expect(small.json().state).toBe('review_approved');
    const large = await post(h, a, '/api/wallet/withdrawals', {
      coin: 'USDT',
      network: 'ethereum',
      address: ETH_ADDRESS,
      amountMinor: '100000000',
      idempotencyKey: key(),
      emailCode: await withdrawCode(h, a),
    });
    expect(large.statusCode).toBe(201);
    expect(large.json().state).toBe('in_review');
    // A withdrawal waiting for review still counts: the next send is refused.
    expect((await send(a, mule, 'USDT', 1_000_000n)).json()).toMatchObject({ code: 'OUTFLOW_REVIEW_LIMIT' });
  });

  it("exchange payouts and refunds do not use the user's budget; a ramp sell's payout does", async () => {
    // Review item 4: an exchange order paid out (or refunded) to the user's address is not the user
    // moving their balance out, yet it used up the budget and refused their next send.
    const [a, mule] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 2_000_000_000n);
    const payout = (kind: 'exchange' | 'ramp', n: string) =>
      placeApprovedPayout(
        h.db,
        {
          userId: a.user.id,
          key: `${kind}:${n}:payout`,
          origin: kind,
          coin: 'USDT',
          network: 'ethereum',
          address: ETH_ADDRESS,
          amountMinor: 900_000_000n,
          feeMinor: 1_000_000n,
        },
        h.clock.now(),
      );
    await payout('exchange', key());
    expect((await send(a, mule, 'USDT', 600_000_000n)).statusCode).toBe(201);
    await payout('ramp', key());
    expect((await send(a, mule, 'USDT', 1_000_000n)).json()).toMatchObject({ code: 'OUTFLOW_REVIEW_LIMIT' });
  });

  it('without a fresh or recent USD price: a send is refused (PRICE_UNAVAILABLE), a withdrawal waits for review', async () => {
    // Review item 3: a coin without a price was valued by its share of its per-coin limit, which can be
    // far below its worth. USDC has no price in this test's feed.
    const [a, mule] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDC', 200_000_000n);
    const refused = await send(a, mule, 'USDC', 1_000_000n);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'PRICE_UNAVAILABLE' });
    expect((await balance(h, a, 'USDC')).available).toBe(200_000_000n);
    const w = await post(h, a, '/api/wallet/withdrawals', {
      coin: 'USDC',
      network: 'ethereum',
      address: ETH_ADDRESS,
      amountMinor: '10000000',
      idempotencyKey: key(),
      emailCode: await withdrawCode(h, a),
    });
    expect(w.statusCode).toBe(201);
    expect(w.json().state).toBe('in_review');
  });

  it('a double-submitted send that reaches the budget answers both times with the one send', async () => {
    // Review item 5: the retry waited on the outflow lock, then counted the first against itself.
    const [a, mule] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 2_000_000_000n);
    const body = {
      coin: 'USDT',
      amountMinor: '1000000000',
      recipientKind: 'email',
      recipient: mule.email,
      idempotencyKey: key(),
      emailCode: await transferCode(h, a),
    };
    const [one, two] = await Promise.all([
      post(h, a, '/api/wallet/sends', body),
      post(h, a, '/api/wallet/sends', body),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
    expect(one.json().id).toBe(two.json().id);
    expect((await balance(h, a, 'USDT')).available).toBe(1_000_000_000n);
  });
});
