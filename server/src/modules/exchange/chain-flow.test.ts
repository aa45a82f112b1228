import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, erc20Abi } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import type { App } from '../../app.ts';
import { createSigner } from '../../signer/signer.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { loadChainConfig } from '../chain/chain-config.ts';
import { DEV_ACCOUNT, devClient, type LocalChains, startLocalChains } from '../chain/local-chains.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { createExchangeEngine, type ExchangeEngine } from './engine.ts';
import { evmOrderDeposits } from './evm-deposits.ts';
import { withdrawalPayouts } from './payouts.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, testXpubs } from './test-helpers.ts';

/**
 * End to end on two local anvil chains: the user sends test USDT on ethereum to the order's deposit
 * address and receives BNB on bsc at their address, paid by the real signer from the hot wallet;
 * a wrong amount is refunded on ethereum to the refund address.
 */
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const hot = mnemonicToAccount(MNEMONIC, { accountIndex: 1 });
const RECEIVER = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as Address; // anvil account 3
const REFUND_TO = '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65' as Address; // anvil account 4

describe('exchange on local anvil chains: USDT on ethereum -> BNB on bsc', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtimes: Record<EvmNetwork, EvmChainRuntime>;
  let engine: ExchangeEngine;
  let signer: ReturnType<typeof createSigner>;
  let userId: string;
  const prices = fixedPrices({ BNB: 600n });
  const now = () => new Date();
  const errors: unknown[] = [];

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-exchange-chain-'));
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
    await seedLiquidity(database.db, new Date(), { BNB: '1000', USDT: '100000' });
    engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: evmOrderDeposits(() => runtimes),
      payouts: withdrawalPayouts(database.db, now),
      onError: (err) => errors.push(err),
    });
    signer = createSigner({ db: database.db, now, account: hot, chains: () => runtimes });
  }, 120_000);
  // One app places every order of the file (an app per order cost ~0.5 s of CPU each to build).
  let orderApp: App | undefined;
  afterAll(async () => {
    await orderApp?.close();
    await chains?.stop();
  });

  const eth = () => devClient(runtimes.ethereum.rpcUrl, runtimes.ethereum.chainId);
  const bsc = () => devClient(runtimes.bsc.rpcUrl, runtimes.bsc.chainId);

  async function placeFixedOrder() {
    orderApp ??= buildTestApp({ db: database.db, now, exchange: { prices, xpubs: testXpubs } });
    const app = orderApp;
    const headers = { [TEST_USER_HEADER]: userId };
    const pair = {
      sendCoin: 'USDT',
      sendNetwork: 'ethereum',
      receiveCoin: 'BNB',
      receiveNetwork: 'bsc',
      amountMinor: '100000000',
    };
    const rate = (
      await app.inject({ method: 'POST', url: '/api/exchange/rates', payload: { ...pair, rateType: 'fixed' }, headers })
    ).json();
    const res = await app.inject({
      method: 'POST',
      url: '/api/exchange/orders',
      headers,
      payload: {
        ...pair,
        rateType: 'fixed',
        rateId: rate.rateId,
        receiveAddress: RECEIVER,
        refundAddress: REFUND_TO,
        termsAccepted: true,
      },
    });
    expect(res.statusCode).toBe(200);
    return res.json() as { id: string; depositAddress: Address; estimatedReceiveMinor: string };
  }

  /** The user's wallet sends test USDT (6 decimals on this chain) to the order's deposit address. */
  async function sendUsdt(to: Address, units: bigint) {
    const client = eth();
    const hash = await client.wallet.writeContract({
      address: runtimes.ethereum.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [to, units],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  }

  /** Engine and signer ticks with blocks mined in between, until the order is in a final state. */
  async function runUntil(orderId: string, states: string[], rounds = 30) {
    for (let i = 0; i < rounds; i++) {
      await engine.tick();
      await signer.tick();
      const row = await findOrder(database.db, orderId);
      if (row && states.includes(row.state) && (row.state !== 'refunded' || row.payout_tx_hash)) return row;
      await eth().mine({ blocks: 3 });
      await bsc().mine({ blocks: 3 });
    }
    const row = await findOrder(database.db, orderId);
    const seen = await evmOrderDeposits(() => runtimes).observe({
      network: 'ethereum',
      coin: 'USDT',
      address: row?.deposit_address as string,
    });
    const debug = JSON.stringify({ errors: errors.map(String).slice(0, 3), seen: String(seen?.confirmations), row });
    throw new Error(`order ${orderId} did not reach ${states.join('|')}: ${debug}`);
  }

  it('a fixed-rate order completes: USDT in on ethereum, BNB out on bsc, both hashes recorded', async () => {
    const order = await placeFixedOrder();
    const before = await bsc().getBalance({ address: RECEIVER });
    const depositHash = await sendUsdt(order.depositAddress, 100_000_000n);
    const done = await runUntil(order.id, ['completed', 'failed', 'refunded', 'suspended']);
    expect(done).toMatchObject({ state: 'completed', deposit_tx_hash: depositHash });
    expect(done.payout_tx_hash).toMatch(/^0x[0-9a-f]{64}$/);
    const receipt = await bsc().getTransactionReceipt({ hash: done.payout_tx_hash as `0x${string}` });
    expect(receipt.status).toBe('success');
    // BNB has 18 decimals on chain and in the ledger: exactly the fixed-rate amount arrived.
    expect((await bsc().getBalance({ address: RECEIVER })) - before).toBe(BigInt(order.estimatedReceiveMinor));
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);

  it('a wrong amount on a fixed-rate order is refunded on ethereum to the refund address', async () => {
    const order = await placeFixedOrder();
    const usdt = runtimes.ethereum.tokens.USDT as Address;
    const balance = () =>
      eth().readContract({ address: usdt, abi: erc20Abi, functionName: 'balanceOf', args: [REFUND_TO] });
    const before = await balance();
    await sendUsdt(order.depositAddress, 50_000_000n); // 50 instead of 100
    const done = await runUntil(order.id, ['refunded', 'failed', 'completed']);
    expect(done).toMatchObject({ state: 'refunded', state_reason: 'amount_mismatch', payout_address: REFUND_TO });
    // 50 USDT minus the 5 USDT ethereum network fee.
    expect((await balance()) - before).toBe(45_000_000n);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);
});
