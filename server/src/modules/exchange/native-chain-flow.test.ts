import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, erc20Abi, type Hash } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { createSigner } from '../../signer/signer.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { findCoinNetwork } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { loadChainConfig } from '../chain/chain-config.ts';
import { DEV_ACCOUNT, devClient, type LocalChains, startLocalChains } from '../chain/local-chains.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { evmOrderDeposits } from './evm-deposits.ts';
import { exchangeAvailability } from './exchange-module.ts';
import { withdrawalPayouts } from './payouts.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, testXpubs } from './test-helpers.ts';

/**
 * Native-coin deposits to order addresses, end to end on two local anvil chains (automine: blocks
 * only when a transaction is sent or the test mines): ETH on ethereum and BNB on bsc are read by
 * the engine's block scanner from its stored cursor, credited only at the catalogue's confirmations,
 * paid out by the real signer, refunded on chain, and never counted twice across engine restarts.
 */
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const hot = mnemonicToAccount(MNEMONIC, { accountIndex: 1 });
const RECEIVER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as Address; // anvil account 3
const REFUND_TO = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65' as Address; // anvil account 4
const ETH = 10n ** 18n;
const ETH_CONFIRMATIONS = findCoinNetwork('ETH', 'ethereum')?.confirmations as number;

describe('exchange on local anvil chains: native ETH / BNB deposits', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtimes: Record<EvmNetwork, EvmChainRuntime>;
  let engine: ExchangeEngine;
  let signer: ReturnType<typeof createSigner>;
  let userId: string;
  const prices = fixedPrices({ ETH: 3000n, BNB: 600n });
  const now = () => new Date();
  const errors: unknown[] = [];

  const newEngine = () =>
    createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: evmOrderDeposits(() => runtimes, { db: database.db, now }),
      payouts: withdrawalPayouts(database.db, now),
      onError: (err) => errors.push(err),
    });

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-exchange-native-'));
    mkdirSync(path.join(dataDir, 'keys'), { mode: 0o700 });
    chains = await startLocalChains({
      dataDir,
      networks: ['ethereum', 'bsc'],
      hotWallets: { ethereum: hot.address, bsc: hot.address },
    });
    const loaded = loadChainConfig(dataDir, {});
    if (!loaded.ethereum || !loaded.bsc) throw new Error('local chains missing');
    runtimes = { ethereum: loaded.ethereum, bsc: loaded.bsc };
    userId = await createUser(database.db);
    await seedLiquidity(database.db, new Date(), { BNB: '1000', ETH: '100', USDT: '100000' });
    engine = newEngine();
    signer = createSigner({ db: database.db, now, account: hot, chains: () => runtimes });
  }, 120_000);
  // One app places every order of the file (an app per order cost ~0.5 s of CPU each to build).
  let orderApp: App | undefined;
  afterAll(async () => {
    await orderApp?.close();
    await chains?.stop();
  });

  const client = (network: EvmNetwork) => devClient(runtimes[network].rpcUrl, runtimes[network].chainId);

  async function placeOrder(input: {
    sendCoin: string;
    sendNetwork: EvmNetwork;
    receiveCoin: string;
    receiveNetwork: EvmNetwork;
    amountMinor: bigint;
    rateType: 'fixed' | 'float';
  }) {
    orderApp ??= buildTestApp({ db: database.db, now, exchange: { prices, xpubs: testXpubs } });
    const app = orderApp;
    const headers = { [TEST_USER_HEADER]: userId };
    const { rateType, ...rest } = input;
    const pair = { ...rest, amountMinor: input.amountMinor.toString() };
    const rate = (
      await app.inject({ method: 'POST', url: '/api/exchange/rates', payload: { ...pair, rateType }, headers })
    ).json();
    const res = await app.inject({
      method: 'POST',
      url: '/api/exchange/orders',
      headers,
      payload: {
        ...pair,
        rateType,
        ...(rateType === 'fixed' ? { rateId: rate.rateId } : {}),
        receiveAddress: RECEIVER,
        refundAddress: REFUND_TO,
        termsAccepted: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: string; depositAddress: Address; estimatedReceiveMinor: string };
  }

  /** The user's wallet sends native coin (anvil dev account) to the order's deposit address. */
  async function sendNative(network: EvmNetwork, to: Address, wei: bigint): Promise<Hash> {
    const c = client(network);
    const hash = await c.wallet.sendTransaction({ account: DEV_ACCOUNT, to, value: wei, chain: null });
    await c.waitForTransactionReceipt({ hash });
    return hash;
  }

  const ledgerIn = async (orderId: string) =>
    database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('idempotency_key', '=', `exchange:${orderId}:in`)
      .execute();

  async function runUntil(orderId: string, states: string[], mineBlocks = 3, rounds = 40) {
    for (let i = 0; i < rounds; i++) {
      await engine.tick();
      await signer.tick();
      const row = await findOrder(database.db, orderId);
      if (row && states.includes(row.state) && (row.state !== 'refunded' || row.payout_tx_hash)) return row;
      await client('ethereum').mine({ blocks: mineBlocks });
      await client('bsc').mine({ blocks: mineBlocks });
    }
    const row = await findOrder(database.db, orderId);
    throw new Error(`order ${orderId} did not reach ${states.join('|')}: ${JSON.stringify({ errors, row })}`);
  }

  it('offers ETH on ethereum and BNB on bsc as send sides', async () => {
    const app = buildTestApp({
      db: database.db,
      now,
      exchange: {
        prices,
        xpubs: testXpubs,
        availability: exchangeAvailability(
          () => runtimes,
          () => true,
        ),
      },
    });
    const pairs = (await app.inject({ method: 'GET', url: '/api/exchange/pairs' })).json();
    await app.close();
    expect(pairs.send).toEqual(
      expect.arrayContaining([
        { coin: 'ETH', network: 'ethereum' },
        { coin: 'BNB', network: 'bsc' },
        { coin: 'USDT', network: 'ethereum' },
      ]),
    );
    expect(pairs.send).not.toContainEqual({ coin: 'BTC', network: 'bitcoin' });
  });

  it('ETH on ethereum -> USDT on bsc: credited only at its confirmations, paid out with both hashes', async () => {
    const order = await placeOrder({
      sendCoin: 'ETH',
      sendNetwork: 'ethereum',
      receiveCoin: 'USDT',
      receiveNetwork: 'bsc',
      amountMinor: ETH / 100n, // 0.01 ETH = 30 USD
      rateType: 'fixed',
    });
    const usdt = runtimes.bsc.tokens.USDT as Address;
    const balance = () =>
      client('bsc').readContract({ address: usdt, abi: erc20Abi, functionName: 'balanceOf', args: [RECEIVER] });
    const before = await balance();
    const depositHash = await sendNative('ethereum', order.depositAddress, ETH / 100n);

    // Seen in its block (1 confirmation), then one block at a time up to one short of the count.
    await engine.tick();
    let row = await findOrder(database.db, order.id);
    expect(row).toMatchObject({ state: 'confirming', deposit_tx_hash: depositHash, deposit_confirmations: 1 });
    for (let c = 2; c < ETH_CONFIRMATIONS; c++) {
      await client('ethereum').mine({ blocks: 1 });
      await engine.tick();
      row = await findOrder(database.db, order.id);
      expect(row).toMatchObject({ state: 'confirming', deposit_confirmations: c });
      expect(await ledgerIn(order.id)).toHaveLength(0);
    }
    await client('ethereum').mine({ blocks: 1 });
    await engine.tick();
    row = await findOrder(database.db, order.id);
    expect(row?.state).toBe('sending');
    expect(await ledgerIn(order.id)).toHaveLength(1);

    const done = await runUntil(order.id, ['completed', 'failed', 'refunded', 'suspended']);
    expect(done).toMatchObject({ state: 'completed', deposit_tx_hash: depositHash });
    expect(done.payout_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await client('bsc').getTransactionReceipt({ hash: done.payout_tx_hash as Hash });
    expect(receipt.status).toBe('success');
    // USDT has 18 decimals on this bsc chain and 6 in the ledger.
    expect((await balance()) - before).toBe(BigInt(order.estimatedReceiveMinor) * 10n ** 12n);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);

  it('a native deposit below the limits is refunded on chain to the refund address', async () => {
    const order = await placeOrder({
      sendCoin: 'ETH',
      sendNetwork: 'ethereum',
      receiveCoin: 'USDT',
      receiveNetwork: 'bsc',
      amountMinor: ETH / 100n,
      rateType: 'float',
    });
    const before = await client('ethereum').getBalance({ address: REFUND_TO });
    // 0.003 ETH = 9 USD, below the 10 USD minimum.
    await sendNative('ethereum', order.depositAddress, (3n * ETH) / 1000n);
    const done = await runUntil(order.id, ['refunded', 'failed', 'completed']);
    expect(done).toMatchObject({ state: 'refunded', state_reason: 'amount_out_of_range', payout_address: REFUND_TO });
    // 0.003 ETH minus the 0.002 ETH ethereum network fee.
    expect((await client('ethereum').getBalance({ address: REFUND_TO })) - before).toBe(ETH / 1000n);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);

  it('BNB on bsc -> USDT on ethereum completes after the 64 bsc confirmations', async () => {
    const order = await placeOrder({
      sendCoin: 'BNB',
      sendNetwork: 'bsc',
      receiveCoin: 'USDT',
      receiveNetwork: 'ethereum',
      amountMinor: ETH / 10n, // 0.1 BNB = 60 USD
      rateType: 'fixed',
    });
    const depositHash = await sendNative('bsc', order.depositAddress, ETH / 10n);
    await engine.tick();
    await client('bsc').mine({ blocks: 60 });
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'confirming', deposit_confirmations: 61 });
    expect(await ledgerIn(order.id)).toHaveLength(0);
    const done = await runUntil(order.id, ['completed', 'failed', 'refunded', 'suspended']);
    expect(done).toMatchObject({ state: 'completed', deposit_tx_hash: depositHash });
    expect(done.payout_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);

  it('an engine restart (and a rescan of the same blocks) does not count a deposit twice', async () => {
    const order = await placeOrder({
      sendCoin: 'ETH',
      sendNetwork: 'ethereum',
      receiveCoin: 'BNB',
      receiveNetwork: 'bsc',
      amountMinor: ETH / 100n,
      rateType: 'fixed',
    });
    const depositHash = await sendNative('ethereum', order.depositAddress, ETH / 100n);
    await engine.tick();
    await client('ethereum').mine({ blocks: 2 });
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'confirming', deposit_confirmations: 3 });
    const cursor = await database.db
      .selectFrom('exchange_deposit_cursors')
      .selectAll()
      .where('network', '=', 'ethereum')
      .executeTakeFirstOrThrow();
    const depositBlock = (await client('ethereum').getTransactionReceipt({ hash: depositHash })).blockNumber;
    expect(BigInt(cursor.block_number)).toBeGreaterThanOrEqual(depositBlock);

    // "Crash": the stored cursor is put back below the deposit block, then a new engine (new
    // observer, new clients) takes over and reads the same blocks again.
    const earlier = await client('ethereum').getBlock({ blockNumber: depositBlock - 1n });
    await database.db
      .updateTable('exchange_deposit_cursors')
      .set({ block_number: (depositBlock - 1n).toString(), block_hash: earlier.hash as string })
      .where('network', '=', 'ethereum')
      .execute();
    engine = newEngine();
    const done = await runUntil(order.id, ['completed', 'failed', 'refunded', 'suspended']);
    expect(done).toMatchObject({ state: 'completed', deposit_tx_hash: depositHash });
    const rows = await database.db
      .selectFrom('exchange_native_deposits')
      .selectAll()
      .where('tx_hash', '=', depositHash)
      .execute();
    expect(rows).toHaveLength(1);
    expect(await ledgerIn(order.id)).toHaveLength(1);
    // Several more ticks of yet another engine change nothing.
    engine = newEngine();
    for (let i = 0; i < 3; i++) await engine.tick();
    expect(await ledgerIn(order.id)).toHaveLength(1);
    const events = await database.db
      .selectFrom('exchange_order_events')
      .select('to_state')
      .where('order_id', '=', order.id)
      .execute();
    expect(events.filter((e) => e.to_state === 'exchanging')).toHaveLength(1);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);

  // Last: evm_revert rolls the whole ethereum chain back to the snapshot.
  it('a reorg that drops the deposit credits nothing; the deposit mined again is credited once', async () => {
    const order = await placeOrder({
      sendCoin: 'ETH',
      sendNetwork: 'ethereum',
      receiveCoin: 'BNB',
      receiveNetwork: 'bsc',
      amountMinor: ETH / 100n,
      rateType: 'fixed',
    });
    const eth = client('ethereum');
    const snapshot = await eth.snapshot();
    const depositHash = await sendNative('ethereum', order.depositAddress, ETH / 100n);
    await engine.tick();
    await eth.mine({ blocks: 2 });
    await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'confirming', deposit_confirmations: 3 });

    const signed = await eth.getTransaction({ hash: depositHash });
    await eth.revert({ id: snapshot });
    await eth.mine({ blocks: ETH_CONFIRMATIONS + 2 }); // a longer chain without the deposit
    for (let i = 0; i < 3; i++) await engine.tick();
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'confirming', deposit_confirmations: 3 });
    expect(await ledgerIn(order.id)).toHaveLength(0);

    // The same signed transaction (same nonce and fees, so the same hash) mined again in a new block,
    // as a real reorg re-includes it from the mempool.
    const again = await eth.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: order.depositAddress,
      value: ETH / 100n,
      nonce: signed.nonce,
      gas: signed.gas,
      maxFeePerGas: signed.maxFeePerGas as bigint,
      maxPriorityFeePerGas: signed.maxPriorityFeePerGas as bigint,
      chain: null,
    });
    expect(again).toBe(depositHash);
    await eth.waitForTransactionReceipt({ hash: again });
    const done = await runUntil(order.id, ['completed', 'failed', 'refunded', 'suspended']);
    expect(done).toMatchObject({ state: 'completed', deposit_tx_hash: depositHash });
    expect(await ledgerIn(order.id)).toHaveLength(1);
    const rows = await database.db
      .selectFrom('exchange_native_deposits')
      .selectAll()
      .where('tx_hash', '=', depositHash)
      .execute();
    expect(rows).toHaveLength(1);
    const receipt = await eth.getTransactionReceipt({ hash: depositHash });
    expect(rows[0]?.block_hash).toBe(receipt.blockHash);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);
});
