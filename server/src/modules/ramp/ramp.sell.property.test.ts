import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createLedgerService } from '../ledger/service.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import type { MoonPayClient } from './moonpay/client.ts';
import { expireAbandoned } from './provider-events.ts';
import type { SandboxRamp } from './sandbox/sandbox-server.ts';
import { createUserIn, plantWithdrawCode, signedWebhook, startTestProvider } from './test-helpers.ts';

/**
 * Property: whatever the provider sends about a user's sells (each status possibly twice, in any
 * order, failures before and after the deposit) and whenever abandoned checkouts expire, no value is
 * made or lost: available + locked stays what the user had (the signer is not running, so nothing
 * left custody); locked is exactly the amount + fee of sells whose payout was placed and not cancelled;
 * a failed sell has no payout left to sign; each sell was locked once and released at most once; the
 * ledger reconciles.
 */
const database = useTestDatabase();
const XPUB =
  'xpub6BosfCnifzxcFwrSzQiqu2DBVTshkCXacvNsWGYJVVhhawA7d4R5WSWGFNbi8Aw6ZRc1brxMyWMzG3DSSSSoekkudhUd9yLb6qx39T9nMdj';
const FUNDS = 1000n * 10n ** 6n;
let sandbox: SandboxRamp;
let client: MoonPayClient;
let app: App;
let at = new Date('2030-01-02T03:04:05.000Z');

beforeAll(async () => {
  ({ sandbox, client } = await startTestProvider());
  app = buildTestApp({
    db: database.db,
    now: () => at,
    deposits: { xpubs: { ethereum: XPUB } },
    ramp: { provider: () => client, networks: () => new Set(['ethereum'] as const), wallClockMs: Date.now },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

type Step = 'created' | 'pending' | 'completed' | 'failed' | 'refunded';
const script = fc.record({
  amount: fc.integer({ min: 5, max: 60 }),
  steps: fc.subarray<Step>(['created', 'pending', 'completed', 'failed', 'refunded'], { minLength: 0 }),
});
const DEPOSIT_ADDRESS = '0x8ba1f109551bD432803012645Ac136ddd64DBA72';

async function place(userId: string, amount: number, method: string, n: number) {
  const headers = { [TEST_USER_HEADER]: userId };
  const quote = await app.inject({
    method: 'POST',
    url: '/api/ramp/quotes',
    headers,
    payload: { side: 'sell', coin: 'USDT', network: 'ethereum', amountMinor: String(amount * 10 ** 6), method: 'upi' },
  });
  const order = await app.inject({
    method: 'POST',
    url: '/api/ramp/orders',
    headers,
    payload: {
      quoteId: quote.json().id,
      termsAccepted: true,
      payoutMethodId: method,
      idempotencyKey: `p-${userId.slice(0, 8)}-${n}`,
      emailCode: await plantWithdrawCode(database.db, userId, at),
    },
  });
  expect(order.statusCode).toBe(200);
  return order.json() as { id: string; cryptoAmountMinor: string; networkFeeMinor: string };
}

function event(orderId: string, amount: number, step: Step) {
  const type =
    step === 'failed'
      ? 'sell_transaction_failed'
      : step === 'created'
        ? 'sell_transaction_created'
        : 'sell_transaction_updated';
  const status = {
    created: 'waitingForDeposit',
    pending: 'pending',
    completed: 'completed',
    failed: 'failed',
    refunded: 'refunded',
  }[step];
  return signedWebhook(type, {
    id: `mp-${orderId}`,
    status,
    externalTransactionId: orderId,
    depositWalletAddress: DEPOSIT_ADDRESS,
    baseCurrencyCode: 'usdt',
    baseCurrencyAmount: String(amount),
    updatedAt: step,
  });
}

it('sells conserve value across random, duplicated and reordered provider events', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(script, { minLength: 1, maxLength: 4 }),
      fc.boolean(),
      fc.infiniteStream(fc.integer()),
      async (orders, expire, noise) => {
        const userId = await createUserIn(database.db, 'IN');
        await createLedgerService({ db: database.db, now: () => at }).deposit({
          idempotencyKey: `f:${userId}`,
          userId,
          asset: 'USDT',
          amountMinor: FUNDS,
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
        const placed = [];
        for (const [n, o] of orders.entries())
          placed.push({ ...(await place(userId, o.amount, method.id, n)), amount: o.amount, steps: o.steps });
        const deliveries = placed.flatMap((p) =>
          p.steps.flatMap((s) => [event(p.id, p.amount, s), event(p.id, p.amount, s)]),
        );
        const rand = noise[Symbol.iterator]();
        deliveries.sort(() => ((rand.next().value as number) % 3) - 1);
        for (const d of deliveries) {
          const res = await app.inject({
            method: 'POST',
            url: '/api/ramp/webhooks/moonpay',
            headers: { 'content-type': 'application/json', 'moonpay-signature-v2': d.header },
            payload: d.body,
          });
          expect(res.statusCode).toBe(200);
        }
        if (expire) await expireAbandoned(database.db, new Date(at.getTime() + 3_600_000));

        const rows = await database.db
          .selectFrom('ramp_orders as o')
          .leftJoin('withdrawals as w', 'w.id', 'o.withdrawal_id')
          .select([
            'o.id',
            'o.state',
            'o.withdrawal_id',
            'w.state as w_state',
            'o.crypto_amount_minor',
            'o.network_fee_minor',
          ])
          .where('o.user_id', '=', userId)
          .execute();
        const available = await balanceOf(database.db, 'user_available', userId, 'USDT');
        const locked = await balanceOf(database.db, 'user_locked', userId, 'USDT');
        expect(available + locked).toBe(FUNDS);
        // Held: sells still waiting (pending), and payouts placed and not cancelled.
        const held = rows.filter((r) => (r.withdrawal_id && r.w_state !== 'review_rejected') || r.state === 'pending');
        // A payout is never placed for an order the provider failed first, nor left to be signed once it failed.
        for (const r of rows) if (r.state === 'failed') expect(r.w_state ?? 'review_rejected').toBe('review_rejected');
        expect(locked).toBe(held.reduce((s, r) => s + BigInt(r.crypto_amount_minor) + BigInt(r.network_fee_minor), 0n));
        const keys = await database.db
          .selectFrom('ledger_transfers')
          .select('idempotency_key')
          .where((eb) =>
            eb.or([eb('idempotency_key', 'like', 'ramp:%'), eb('idempotency_key', 'like', 'withdrawal:%')]),
          )
          .execute();
        for (const r of rows) {
          const mine = keys
            .map((k) => k.idempotency_key)
            .filter(
              (k) =>
                k.startsWith(`ramp:${r.id}:`) || (r.withdrawal_id && k.startsWith(`withdrawal:${r.withdrawal_id}:`)),
            );
          expect(mine.filter((k) => k.endsWith(':lock') && k.startsWith('ramp:'))).toHaveLength(1);
          // Released at most once: by the order (no payout) or by the payout's cancellation, never both.
          expect(mine.filter((k) => k.endsWith(':unlock')).length).toBeLessThanOrEqual(1);
          expect(r.withdrawal_id !== null && mine.includes(`ramp:${r.id}:unlock`)).toBe(false);
        }
        expect((await reconcile(database.db)).ok).toBe(true);
        at = new Date(at.getTime() + 1000);
      },
    ),
    { numRuns: 25, seed: 20261126 },
  );
  // Each sell now checks and uses an e-mail code too: a few more queries per order on a shared machine.
}, 60_000);
