import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import type { CodeRow } from '../auth/codes-repository.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { createLedgerService } from '../ledger/service.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import { parseDecimal } from '../prices/rational.ts';
import type { SecondFactors } from '../security/factors-service.ts';
import { createOutflowBudget } from '../withdrawals/outflow-budget.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { createRampService } from './service.ts';
import { createUserIn, startTestProvider } from './test-helpers.ts';

/**
 * Issue 38 review, item 1: a sell pays the coins out as an approved withdrawal, so it counts in the
 * USD review budget withdrawals and sends share. Before, sells skipped it entirely: a taken-over
 * account (with the fund password and mailbox) sold everything out in one day. The e-mail code and
 * fund password are stubbed here (their own test is sell-verification.api.test.ts): only the budget
 * and its lock are under test. Budget $100, USDT at $1.
 */
const database = useTestDatabase();
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';
const at = new Date('2030-01-02T03:04:05.000Z');
const USD: Partial<Record<CoinCode, string>> = { USDT: '1' };
let sandbox: SandboxRamp;
let provider: MoonPayClient;
beforeAll(async () => {
  ({ sandbox, client: provider } = await startTestProvider());
});
afterAll(async () => sandbox.close());

const codes = {
  check: async () => ({ id: 'stub' }) as unknown as CodeRow,
  consume: async () => {},
} as unknown as VerificationCodes;
const fundPassword = { verify: async () => {} } as unknown as FundPasswordService;
// No authenticator app on these accounts: the step-up (issue 31) asks for nothing more.
const factors = { has: async () => false } as unknown as SecondFactors;

function ramp() {
  return createRampService({
    db: database.db,
    now: () => at,
    codes,
    fundPassword,
    factors,
    provider: () => provider,
    networks: () => new Set(['ethereum'] as const),
    xpubs: { ethereum: XPUB },
    budget: createOutflowBudget({
      prices: {
        price(coin: CoinCode) {
          const p = USD[coin];
          if (!p) throw new PriceUnavailableError();
          return parseDecimal(p);
        },
      },
      budgetUsdCents: 10_000n,
    }),
  });
}

async function seller(usdt: bigint) {
  const userId = await createUserIn(database.db, 'IN');
  await createLedgerService({ db: database.db, now: () => at }).deposit({
    idempotencyKey: `f:${userId}`,
    userId,
    asset: 'USDT',
    amountMinor: usdt * 10n ** 6n,
  });
  const method = await database.db
    .insertInto('payment_methods')
    .values({
      user_id: userId,
      kind: 'upi',
      shown: JSON.stringify({ upi: 'a***@upi' }),
      sealed: null,
      created_at: at,
      updated_at: at,
      usable_at: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { userId, methodId: method.id };
}

async function sell(s: ReturnType<typeof ramp>, who: { userId: string; methodId: string }, usdt: number) {
  const caller = {
    userId: who.userId,
    origin: 'http://localhost',
    client: { ip: '10.0.0.1', userAgent: null, userId: who.userId, sessionId: null },
  };
  const quote = await s.quotes.quote(who.userId, {
    side: 'sell',
    coin: 'USDT',
    network: 'ethereum',
    amountMinor: String(usdt * 10 ** 6),
    method: 'upi',
  });
  return s.orders.place(caller, {
    quoteId: quote.id,
    termsAccepted: true,
    payoutMethodId: who.methodId,
    idempotencyKey: randomUUID(),
    emailCode: '123456',
  });
}

const lockedUsdt = (userId: string) => balanceOf(database.db, 'user_locked', userId, 'USDT');

describe('sells count in the USD review budget', () => {
  it('refuses a sell that takes the day over the budget (OUTFLOW_REVIEW_LIMIT), nothing locked', async () => {
    const s = ramp();
    const who = await seller(1000n);
    await sell(s, who, 60);
    const locked = await lockedUsdt(who.userId);
    await expect(sell(s, who, 60)).rejects.toMatchObject({ code: 'OUTFLOW_REVIEW_LIMIT' });
    expect(await lockedUsdt(who.userId)).toBe(locked);
  });

  it('two concurrent sells each under the budget but not together: one is placed, one refused', async () => {
    const s = ramp();
    const who = await seller(1000n);
    const results = await Promise.allSettled([sell(s, who, 60), sell(s, who, 60)]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = results.find((r) => r.status === 'rejected');
    expect((refused as PromiseRejectedResult).reason).toMatchObject({ code: 'OUTFLOW_REVIEW_LIMIT' });
    const placed = await database.db.selectFrom('ramp_orders').selectAll().where('user_id', '=', who.userId).execute();
    expect(placed).toHaveLength(1);
  });

  it('a pending sell counts against a later send or withdrawal of the same day', async () => {
    const s = ramp();
    const who = await seller(1000n);
    await sell(s, who, 60);
    const { outflowSpentUsdCents } = await import('../withdrawals/outflow-budget.ts');
    const budget = createOutflowBudget({ prices: { price: () => parseDecimal('1') } });
    expect(await outflowSpentUsdCents(database.db, budget, who.userId, at)).toBeGreaterThanOrEqual(6000n);
  });
});
