import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { networkCodes } from '../catalogue/catalogue.ts';
import { accountXpubFromSeed } from '../chain/derive.ts';
import type { UsdPrices } from './pricing.ts';
import { type ExchangeState, exchangeTransitions } from './states.ts';

/** Test-only fixtures for exchange tests. */

/** Account xpubs of a fixed test seed, as the keygen child would write them. */
export const testXpubs = Object.fromEntries(
  networkCodes.map((n) => [n, accountXpubFromSeed(new Uint8Array(64).fill(7), n)]),
) as Record<(typeof networkCodes)[number], string>;

/** Exact USD prices (whole dollars) standing in for the price cache at the interface boundary. */
export function fixedPrices(usd: Partial<Record<string, bigint>>): UsdPrices & { set(coin: string, v: bigint): void } {
  const table = { ...usd };
  return {
    price(coin) {
      const value = table[coin];
      if (value === undefined) throw new Error(`no test price for ${coin}`);
      return { num: value, den: 1n };
    },
    set(coin, v) {
      table[coin] = v;
    },
  };
}

/** Anvil's first two well-known accounts: valid checksummed EVM addresses. */
export const EVM_ADDRESS_A = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
export const EVM_ADDRESS_B = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';

/**
 * In-memory stand-ins for the chain watcher and the signer at the engine's two interfaces
 * (OrderDepositObserver, PayoutGateway): the test plays the chain by setting what is "seen".
 */
export function memoryChain(opts: { transfers?: boolean } = {}) {
  const seen = new Map<string, import('./engine.ts').ObservedOrderDeposit>();
  const payouts = new Map<
    string,
    { request: import('./engine.ts').PayoutRequest; status: import('./engine.ts').PayoutStatus }
  >();
  // The chain head's time (what the watcher has read); unset: caught up (the engine also needs the wall clock past).
  const chainState: { head: Date | null | undefined; failing: Set<string> } = { head: undefined, failing: new Set() };
  // Look-ups per address, per kind: which orders each engine step looked at.
  const looks = { observe: new Map<string, number>(), transfers: new Map<string, number>() };
  const count = (m: Map<string, number>, address: string) => m.set(address, (m.get(address) ?? 0) + 1);
  const extra = new Map<string, import('./engine.ts').ObservedTransfer[]>();
  const deposits: import('./engine.ts').OrderDepositObserver = {
    async headTime() {
      return chainState.head === undefined ? new Date(8.64e15) : chainState.head;
    },
    async observe({ address }) {
      count(looks.observe, address);
      if (chainState.failing.has(address)) throw new Error(`test: look-up of ${address} failed`);
      return seen.get(address) ?? null;
    },
  };
  if (opts.transfers)
    deposits.transfers = async ({ address }) => {
      count(looks.transfers, address);
      return extra.get(address) ?? [];
    };
  const gateway: import('./engine.ts').PayoutGateway = {
    async request(_trx, payout) {
      if (!payouts.has(payout.key)) payouts.set(payout.key, { request: payout, status: { state: 'pending' } });
      return payout.key;
    },
    async status(id) {
      return payouts.get(id)?.status ?? { state: 'failed', reason: 'unknown payout' };
    },
  };
  return {
    deposits,
    gateway,
    payouts,
    looks,
    /** Transfers listed for an address by `transfers()` (with `{ transfers: true }`). */
    setTransfers(address: string, list: import('./engine.ts').ObservedTransfer[]) {
      extra.set(address, list);
    },
    /** The watcher's head time (null: unknown; undefined: caught up). */
    setHead(head: Date | null | undefined) {
      chainState.head = head;
    },
    /** Look-ups of this address throw (an RPC error) until cleared. */
    failLookups(address: string, failing = true) {
      if (failing) chainState.failing.add(address);
      else chainState.failing.delete(address);
    },
    deposit(
      address: string,
      amountMinor: bigint,
      confirmations: number,
      txHash = `0x${'ab'.repeat(32)}`,
      blockTime?: Date,
      logIndex?: number,
    ) {
      seen.set(address, {
        txHash,
        amountMinor,
        confirmations,
        ...(blockTime ? { blockTime } : {}),
        ...(logIndex === undefined ? {} : { logIndex }),
      });
    },
    mine(key: string, txHash = `0x${'cd'.repeat(32)}`) {
      const p = payouts.get(key);
      if (!p) throw new Error(`no payout ${key}`);
      p.status = { state: 'sent', txHash };
    },
    fail(key: string) {
      const p = payouts.get(key);
      if (!p) throw new Error(`no payout ${key}`);
      p.status = { state: 'failed', reason: 'reverted' };
    },
  };
}

/** Test-only: a float order row inserted straight into SQL (state 'new'), independent of the service. */
export async function insertBareOrder(db: Kysely<Database>, userId: string, now: Date): Promise<string> {
  const { id } = await db
    .insertInto('exchange_orders')
    .values({
      user_id: userId,
      state_reason: null,
      rate_type: 'float',
      send_coin: 'USDT',
      send_network: 'ethereum',
      receive_coin: 'BNB',
      receive_network: 'bsc',
      send_amount_minor: '100000000',
      rate_scaled: '1000000000000000',
      estimated_receive_minor: '1',
      service_charge_minor: '0',
      network_fee_minor: '0',
      rate_lock_id: null,
      deadline_at: null,
      receive_address: '0x000000000000000000000000000000000000dEaD',
      refund_address: null,
      // The completed state requires both hashes (CHECK); set them up front so any path may end there.
      deposit_tx_hash: `0x${'11'.repeat(32)}`,
      payout_tx_hash: `0x${'22'.repeat(32)}`,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** Shortest path of legal transitions from 'new' to `target` (breadth-first over the table). */
export function pathTo(target: ExchangeState): ExchangeState[] {
  const previous = new Map<ExchangeState, ExchangeState | null>([['new', null]]);
  const queue: ExchangeState[] = ['new'];
  while (queue.length > 0) {
    const state = queue.shift() as ExchangeState;
    if (state === target) break;
    for (const next of exchangeTransitions[state]) {
      if (!previous.has(next)) {
        previous.set(next, state);
        queue.push(next);
      }
    }
  }
  if (!previous.has(target)) throw new Error(`state ${target} is unreachable from new`);
  const path: ExchangeState[] = [];
  for (let s: ExchangeState | null = target; s !== null && s !== 'new'; s = previous.get(s) ?? null) path.unshift(s);
  return path;
}

const placeOrderApps = new WeakMap<Kysely<Database>, ReturnType<typeof import('../../test/app.ts').buildTestApp>>();

/** Test-only: places an order through the API (fixed: on a fresh rate); 100 USDT on ethereum -> BNB on bsc by default. */
export async function placeOrder(
  setup: { db: Kysely<Database>; now: () => Date; prices: UsdPrices; userId: string },
  rateType: 'float' | 'fixed',
  overrides: Record<string, unknown> = {},
) {
  const { buildTestApp, TEST_USER_HEADER } = await import('../../test/app.ts');
  // One app per test file's setup (building one per order is slow).
  let app = placeOrderApps.get(setup.db);
  if (!app) {
    app = buildTestApp({ db: setup.db, now: setup.now, exchange: { prices: setup.prices, xpubs: testXpubs } });
    placeOrderApps.set(setup.db, app);
  }
  const headers = { [TEST_USER_HEADER]: setup.userId };
  const pair = {
    sendCoin: 'USDT',
    sendNetwork: 'ethereum',
    receiveCoin: 'BNB',
    receiveNetwork: 'bsc',
    amountMinor: '100000000',
    ...overrides,
  };
  const body: Record<string, unknown> = {
    ...pair,
    rateType,
    receiveAddress: EVM_ADDRESS_A,
    refundAddress: EVM_ADDRESS_B,
    termsAccepted: true,
  };
  if (rateType === 'fixed') {
    const rate = await app.inject({
      method: 'POST',
      url: '/api/exchange/rates',
      payload: { ...pair, rateType },
      headers,
    });
    body.rateId = rate.json().rateId;
  }
  const res = await app.inject({ method: 'POST', url: '/api/exchange/orders', payload: body, headers });
  if (res.statusCode !== 200) throw new Error(`order refused: ${res.body}`);
  return res.json() as { id: string; depositAddress: string; estimatedReceiveMinor: string; deadlineAt: string | null };
}
