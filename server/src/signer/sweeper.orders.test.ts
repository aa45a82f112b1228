import { type Address, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../contracts/test-token.json' with { type: 'json' };
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { custodyCheck, custodyLines } from '../modules/custody/custody-check.ts';
import { bookOrderCustody, orderInKey } from '../modules/custody/order-custody.ts';
import { deriveOrderDepositAddress } from '../modules/exchange/deposit-address.ts';
import { createExchangeEngine } from '../modules/exchange/engine.ts';
import { evmOrderDeposits } from '../modules/exchange/evm-deposits.ts';
import { fixedPrices, insertBareOrder, memoryChain } from '../modules/exchange/test-helpers.ts';
import { transitionOrder } from '../modules/exchange/transition.ts';
import { reconcile } from '../modules/ledger/reconcile.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { createUser } from '../test/app.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner } from './signer.ts';
import { sweepKeys } from './test-helpers.ts';

const { hot, xpub } = sweepKeys;
const USDT = 10n ** 6n;

/**
 * Exchange order addresses join the deposit sweeps (issue 37, item 2): the coins an order booked stay on
 * its address until the order is done, then go to the hot wallet like a user's credited deposit; the
 * hot wallet's gas top-up to the order address is never taken for an extra deposit. Real anvil.
 */
describe('sweeps of exchange order addresses', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let dataDir: string;

  beforeAll(async () => {
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-order-sweeps-', hot.address));
  }, 120_000);
  afterAll(() => chains?.stop());

  const signer = () =>
    createSigner({
      db: database.db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      depositAccount: sweepKeys.depositAccount,
      sweepIntervalMs: 0,
    });
  const usdtOf = (owner: Address) =>
    client.readContract({
      address: runtime.tokens.USDT as Address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner],
    });
  const sweepsOf = (address: string) =>
    database.db
      .selectFrom('sweep_transactions')
      .selectAll()
      .where('deposit_address', '=', address)
      .orderBy('id')
      .execute();

  /** An order paid on its own (branch 2) address, walked to `sending` with its 500 USDT booked as the engine books them. */
  async function paidOrder(index: number) {
    const db = database.db;
    const userId = await createUser(db);
    const id = await insertBareOrder(db, userId, new Date());
    const address = deriveOrderDepositAddress('ethereum', xpub, index);
    const mint = await client.wallet.writeContract({
      address: runtime.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [address as Address, 500n * USDT],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash: mint });
    await db
      .updateTable('exchange_orders')
      .set({
        deposit_address: address,
        deposit_index: index,
        deadline_at: new Date(),
        deposit_tx_hash: mint,
        deposit_amount_minor: '500000000',
      })
      .where('id', '=', id)
      .execute();
    await db.transaction().execute(async (trx) => {
      for (const to of ['waiting', 'confirming', 'exchanging', 'sending'] as const)
        await transitionOrder(trx, id, to, { now: new Date(), reason: 'test walk' });
      const coins = { orderId: id, network: 'ethereum', address, coin: 'USDT', amountMinor: 500n * USDT } as const;
      await bookOrderCustody(trx, { ...coins, key: orderInKey(id) }, new Date());
      // Booked once: the signer's backfill and a second engine step post nothing more.
      expect(await bookOrderCustody(trx, { ...coins, key: orderInKey(id) }, new Date())).toBe(false);
    });
    return { id, address: address as Address };
  }

  it('sweeps a completed order, never one still sending; its gas top-up is no extra deposit; custody stays balanced', async () => {
    const db = database.db;
    const hotBefore = await usdtOf(hot.address);
    const order = await paidOrder(7);
    const booked = await balanceOf(db, 'system_deposit_addresses', null, 'USDT@ethereum');

    // Still sending: the payout may yet fail and the order be looked at. Nothing is planned for its address.
    for (let i = 0; i < 3; i++) await signer().tick();
    expect(await sweepsOf(order.address)).toEqual([]);

    await db
      .transaction()
      .execute((trx) => transitionOrder(trx, order.id, 'completed', { now: new Date(), reason: 'payout_mined' }));
    for (let i = 0; i < 8; i++) {
      await signer().tick();
      if ((await sweepsOf(order.address)).some((r) => r.kind === 'sweep' && r.state === 'mined')) break;
    }
    const rows = await sweepsOf(order.address);
    expect(rows.map((r) => [r.kind, r.coin, r.state])).toEqual([
      ['gas_topup', 'ETH', 'mined'],
      ['sweep', 'USDT', 'mined'],
    ]);
    expect(rows[1]?.from_address).toBe(order.address);
    expect(await usdtOf(order.address)).toBe(0n);
    expect(await usdtOf(hot.address)).toBe(hotBefore + 500n * USDT);
    expect(await balanceOf(db, 'system_deposit_addresses', null, 'USDT@ethereum')).toBe(booked - 500n * USDT);
    expect((await signer().tick()).sweeps).toBe(0); // nothing left to sweep

    // The order is within its late-deposit watch: the engine reads its address, and the top-up is ours.
    const errors: unknown[] = [];
    const engine = createExchangeEngine({
      db,
      now: () => new Date(),
      prices: fixedPrices({ ETH: 3000n }),
      deposits: evmOrderDeposits(() => ({ ethereum: runtime }), { db }),
      payouts: memoryChain().gateway,
      onError: (err) => errors.push(err),
    });
    await client.mine({ blocks: 8 }); // past every confirmation count
    for (let i = 0; i < 2; i++) expect((await engine.tick()).extraDeposits).toBe(0);
    expect(errors).toEqual([]);
    expect(await db.selectFrom('exchange_native_deposits').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('exchange_extra_deposits').selectAll().execute()).toEqual([]);

    const reports = await custodyCheck(db, dataDir, {});
    const ethereum = reports.find((r) => r.network === 'ethereum');
    expect(ethereum?.skipped).toBeUndefined();
    for (const h of ethereum?.hot ?? []) expect([h.asset, h.chain]).toEqual([h.asset, h.book]);
    for (const d of ethereum?.deposits ?? []) expect(d.chain).toBeGreaterThanOrEqual(d.book);
    expect(custodyLines(reports).ok).toBe(true);
    expect((await reconcile(db)).ok).toBe(true);
  }, 180_000);

  it('books order coins booked before order addresses joined the sweeps, once (the signer pages them in)', async () => {
    const db = database.db;
    const userId = await createUser(db);
    const id = await insertBareOrder(db, userId, new Date());
    const address = deriveOrderDepositAddress('ethereum', xpub, 8);
    await db
      .updateTable('exchange_orders')
      .set({
        deposit_address: address,
        deposit_index: 8,
        deposit_amount_minor: '3000000',
        deposit_confirmed_at: new Date(),
      })
      .where('id', '=', id)
      .execute();
    const before = await balanceOf(db, 'system_deposit_addresses', null, 'USDT@ethereum');
    await signer().tick();
    await signer().tick();
    expect(await balanceOf(db, 'system_deposit_addresses', null, 'USDT@ethereum')).toBe(before + 3n * USDT);
    expect(
      await db
        .selectFrom('order_address_custody')
        .select(['custody_key', 'chain_amount'])
        .where('order_id', '=', id)
        .execute(),
    ).toEqual([{ custody_key: orderInKey(id), chain_amount: '3000000' }]);
  });
});
