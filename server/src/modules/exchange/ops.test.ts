import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { tsChildArgs } from '../../lib/ts-child.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { runExchangeOps } from './ops.ts';
import { findOrder, listEvents } from './repository.ts';
import { EVM_ADDRESS_A, EVM_ADDRESS_B, fixedPrices, memoryChain, testXpubs } from './test-helpers.ts';

const execFileAsync = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** `npm run ops -- <args>` against the test database (the real script, in a child process). */
async function ops(databaseUrl: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, tsChildArgs('scripts/ops.ts', args), {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

const database = useTestDatabase();
const clock = new Date('2030-01-02T03:04:05.000Z');
const now = () => clock;
const prices = fixedPrices({ BNB: 600n });
const chain = memoryChain();
let engine: ExchangeEngine;
let userId: string;
let app: App;

async function createFloatOrder() {
  const res = await app.inject({
    method: 'POST',
    url: '/api/exchange/orders',
    headers: { [TEST_USER_HEADER]: userId },
    payload: {
      sendCoin: 'USDT',
      sendNetwork: 'ethereum',
      receiveCoin: 'BNB',
      receiveNetwork: 'bsc',
      amountMinor: '100000000',
      rateType: 'float',
      receiveAddress: EVM_ADDRESS_A,
      refundAddress: EVM_ADDRESS_B,
      termsAccepted: true,
    },
  });
  return res.json() as { id: string; depositAddress: string };
}

describe('npm run ops -- exchange', () => {
  beforeAll(async () => {
    userId = await createUser(database.db);
    await seedLiquidity(database.db, clock, { BNB: '1000' });
    engine = createExchangeEngine({ db: database.db, now, prices, deposits: chain.deposits, payouts: chain.gateway });
    // One app places every order of the file (it was one app per order).
    app = buildTestApp({ db: database.db, now, exchange: { prices, xpubs: testXpubs } });
  });
  afterAll(() => app.close());

  it('suspend and list through the real script, then resolve; the events keep the operator reason', async () => {
    const order = await createFloatOrder();
    const suspend = await ops(database.url, 'exchange', 'suspend', order.id, '--reason', 'sanctions check');
    expect(suspend.code).toBe(0);
    expect((await findOrder(database.db, order.id))?.state).toBe('suspended');

    const list = await ops(database.url, 'exchange', 'list');
    expect(list.code).toBe(0);
    expect(list.stdout).toContain(order.id);
    expect(list.stdout).toMatch(/1 suspended exchange order/);

    const wrong = await runExchangeOps(database.db, ['resolve', order.id, '--to', 'completed'], now);
    expect(wrong.code).toBe(1);
    const noDeposit = await runExchangeOps(database.db, ['resolve', order.id, '--to', 'exchanging'], now);
    expect(noDeposit.code).toBe(1);
    expect(noDeposit.lines.join()).toMatch(/not booked/);

    // The script hands its arguments to runExchangeOps (suspend and list above went through it): the
    // resolves run that function here, without a third child process loading the server's modules.
    const resolve = await runExchangeOps(
      database.db,
      ['resolve', order.id, '--to', 'waiting', '--reason', 'cleared'],
      now,
    );
    expect(resolve.code).toBe(0);
    const events = await listEvents(database.db, order.id);
    expect(events.slice(-2).map((e) => [e.from_state, e.to_state, e.reason])).toEqual([
      ['waiting', 'suspended', 'operator: sanctions check'],
      ['suspended', 'waiting', 'operator: cleared'],
    ]);
    expect((await runExchangeOps(database.db, ['frobnicate'], now)).code).toBe(2);
  }, 60_000);

  it('resolve checks the deposit: an unbooked deposit goes back to confirming; a payout in flight cannot be suspended', async () => {
    const held = await createFloatOrder();
    chain.deposit(held.depositAddress, 100_000_000n, 1, `0x${'0c'.repeat(32)}`);
    await engine.tick();
    expect((await findOrder(database.db, held.id))?.state).toBe('confirming');
    expect((await runExchangeOps(database.db, ['suspend', held.id], now)).code).toBe(0);
    // Not booked yet: only waiting/confirming/failed make sense.
    expect((await runExchangeOps(database.db, ['resolve', held.id, '--to', 'refunded'], now)).code).toBe(1);
    expect((await runExchangeOps(database.db, ['resolve', held.id, '--to', 'confirming'], now)).code).toBe(0);
    chain.deposit(held.depositAddress, 100_000_000n, 6, `0x${'0c'.repeat(32)}`);
    prices.set('BNB', 900n); // the rate moves far; the order is refunded by the engine anyway
    await engine.tick();
    prices.set('BNB', 600n);
    expect(await findOrder(database.db, held.id)).toMatchObject({ state: 'refunded', state_reason: 'rate_moved' });

    // Now one held while exchanging: suspended by an operator, then refunded on the operator's word.
    const third = await createFloatOrder();
    chain.deposit(third.depositAddress, 100_000_000n, 6, `0x${'0d'.repeat(32)}`);
    await database.db.transaction().execute(async (trx) => {
      const { transitionOrder } = await import('./transition.ts');
      // Walk it by hand to exchanging as the engine would (deposit booked).
      await transitionOrder(trx, third.id, 'confirming', {
        now: clock,
        patch: { deposit_tx_hash: `0x${'0d'.repeat(32)}`, deposit_amount_minor: '100000000' },
      });
    });
    await engine.tick(); // confirming -> exchanging -> sending
    expect((await findOrder(database.db, third.id))?.state).toBe('sending');
    const refused = await runExchangeOps(database.db, ['suspend', third.id], now);
    expect(refused.code).toBe(1); // sending cannot be suspended (the payout is in flight)
  });

  it('resolve --to refunded: the engine refunds the booked deposit to the refund address', async () => {
    // Short liquidity suspends an exchanging order with its deposit booked.
    const order = await createFloatOrder();
    await database.db.transaction().execute(async (trx) => {
      const { ensureAccount } = await import('../ledger/repository.ts');
      const { postTransfer } = await import('../ledger/post-transfer.ts');
      const { balanceOf } = await import('../ledger/test-helpers.ts');
      const bnb = await balanceOf(trx, 'system_liquidity', null, 'BNB');
      const liquidity = await ensureAccount(trx, { kind: 'system_liquidity', userId: null, asset: 'BNB' });
      const external = await ensureAccount(trx, { kind: 'system_external', userId: null, asset: 'BNB' });
      await postTransfer(
        trx,
        {
          idempotencyKey: 'test:drain-bnb',
          kind: 'exchange',
          legs: [
            { accountId: liquidity, amountMinor: -bnb },
            { accountId: external, amountMinor: bnb },
          ],
        },
        clock,
      );
    });
    chain.deposit(order.depositAddress, 100_000_000n, 6, `0x${'0e'.repeat(32)}`);
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({
      state: 'suspended',
      state_reason: 'insufficient_liquidity',
    });
    // Issue 37 item 9: a booked deposit is never failed by hand (that would keep the money, refund nothing).
    const failing = await runExchangeOps(database.db, ['resolve', order.id, '--to', 'failed'], now);
    expect(failing.code).toBe(1);
    expect(failing.lines.join(' ')).toContain('booked');
    expect((await findOrder(database.db, order.id))?.state).toBe('suspended');
    const resolved = await runExchangeOps(database.db, ['resolve', order.id, '--to', 'refunded'], now);
    expect(resolved.code).toBe(0);
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({
      state: 'refunded',
      state_reason: 'operator_refund',
      payout_address: EVM_ADDRESS_B,
      payout_amount_minor: '95000000',
    });
    expect((await listEvents(database.db, order.id)).map((e) => e.to_state).slice(-3)).toEqual([
      'suspended',
      'exchanging',
      'refunded',
    ]);
  }, 60_000);
});
