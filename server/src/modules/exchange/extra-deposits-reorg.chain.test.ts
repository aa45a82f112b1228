import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, erc20Abi } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { EvmChainRuntime } from '../chain/chain-config.ts';
import { loadChainConfig } from '../chain/chain-config.ts';
import { DEV_ACCOUNT, devClient, type LocalChains, startLocalChains } from '../chain/local-chains.ts';
import { seedLiquidity } from '../convert/liquidity.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { createExchangeEngine } from './engine.ts';
import { evmOrderDeposits } from './evm-deposits.ts';
import { findOrder } from './repository.ts';
import { fixedPrices, memoryChain, placeOrder } from './test-helpers.ts';

/**
 * An extra deposit (the rest of a split payment, booked as a late deposit) whose transaction a reorg
 * mines again at another log index is booked once: its key is its place in its transaction, not the
 * block-level log index (review of issue 37, HIGH 1, for extra deposits; migration 0072). Local anvil bsc.
 */
const HOT = '0x90F79bf6EB2c4f870365E785982E1f101E93b906' as Address; // anvil account 3
const OTHER = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC' as Address; // anvil account 2

describe('extra order deposits across a reorg on a local bsc chain', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let bsc: EvmChainRuntime;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-extra-reorg-'));
    mkdirSync(path.join(dataDir, 'keys'), { mode: 0o700 });
    chains = await startLocalChains({ dataDir, networks: ['bsc'], hotWallets: { bsc: HOT } });
    const loaded = loadChainConfig(dataDir, {}).bsc;
    if (!loaded) throw new Error('local bsc missing');
    bsc = loaded;
  }, 120_000);
  afterAll(() => chains?.stop());

  it('an extra deposit re-mined at another log index after a reorg is refunded once', async () => {
    const now = () => new Date();
    const prices = fixedPrices({ BNB: 600n });
    const userId = await createUser(database.db);
    await seedLiquidity(database.db, now(), { BNB: '1000', USDT: '100000' });
    const chain = memoryChain();
    const errors: unknown[] = [];
    const engine = createExchangeEngine({
      db: database.db,
      now,
      prices,
      deposits: evmOrderDeposits(() => ({ bsc }), { db: database.db, now }),
      payouts: chain.gateway,
      onError: (err) => errors.push(err),
    });
    const order = await placeOrder({ db: database.db, now, prices, userId }, 'float', {
      sendNetwork: 'bsc',
      amountMinor: '100000000',
    });
    const to = order.depositAddress as Address;
    const client = devClient(bsc.rpcUrl, bsc.chainId);
    const usdt = bsc.tokens.USDT as Address;
    const mint = { address: usdt, abi: artifact.abi, functionName: 'mint', chain: null } as const;
    const deposit = await client.wallet.writeContract({ ...mint, args: [to, 100n * 10n ** 18n], account: DEV_ACCOUNT });
    await client.waitForTransactionReceipt({ hash: deposit });
    const snapshot = await client.snapshot();
    const extra = await client.wallet.writeContract({ ...mint, args: [to, 7n * 10n ** 18n], account: DEV_ACCOUNT });
    const first = await client.waitForTransactionReceipt({ hash: extra });
    await client.mine({ blocks: 70 }); // bsc: 64 confirmations
    for (let i = 0; i < 4; i++) await engine.tick();
    const booked = await database.db
      .selectFrom('exchange_extra_deposits')
      .selectAll()
      .where('order_id', '=', order.id)
      .execute();
    expect(booked).toMatchObject([
      { tx_hash: extra.toLowerCase(), log_index: first.logs[0]?.logIndex, tx_position: 0, amount_minor: '7000000' },
    ]);
    expect(await findOrder(database.db, order.id)).toMatchObject({ state: 'sending', deposit_tx_hash: deposit });
    expect(chain.payouts.size).toBe(2); // the order's payout and the extra deposit's refund

    // The reorg: the new branch mines an approval (an Approval log) first, then the same signed extra transfer.
    const signed = await client.getTransaction({ hash: extra });
    await client.revert({ id: snapshot });
    await client.setAutomine(false);
    const tip = (signed.maxPriorityFeePerGas as bigint) + 10n ** 9n;
    const before = await client.wallet.writeContract({
      address: usdt,
      abi: erc20Abi,
      functionName: 'approve',
      args: [HOT, 1n],
      chain: null,
      account: OTHER,
      maxPriorityFeePerGas: tip,
      maxFeePerGas: (signed.maxFeePerGas as bigint) + tip,
    });
    const again = await client.wallet.writeContract({
      ...mint,
      args: [to, 7n * 10n ** 18n],
      account: DEV_ACCOUNT,
      nonce: signed.nonce,
      gas: signed.gas,
      maxFeePerGas: signed.maxFeePerGas as bigint,
      maxPriorityFeePerGas: signed.maxPriorityFeePerGas as bigint,
    });
    expect(again).toBe(extra);
    await client.mine({ blocks: 1 });
    await client.setAutomine(true);
    const other = await client.getTransactionReceipt({ hash: before });
    const remined = await client.getTransactionReceipt({ hash: extra });
    expect(other).toMatchObject({ status: 'success', blockNumber: remined.blockNumber, transactionIndex: 0 });
    expect(remined.logs[0]?.logIndex).not.toBe(first.logs[0]?.logIndex);

    await client.mine({ blocks: 70 });
    for (let i = 0; i < 4; i++) await engine.tick();
    expect(
      await database.db.selectFrom('exchange_extra_deposits').select('id').where('order_id', '=', order.id).execute(),
    ).toHaveLength(1);
    expect(chain.payouts.size).toBe(2);
    expect(await balanceOf(database.db, 'user_locked', userId, 'USDT')).toBe(7_000_000n); // the refund's, once
    // The coins on the order address are in the custody book once each (the deposit and the extra one), for the sweeper.
    const custody = await database.db
      .selectFrom('order_address_custody')
      .select(['coin', 'chain_amount'])
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(custody).toEqual([
      { coin: 'USDT', chain_amount: (100n * 10n ** 18n).toString() },
      { coin: 'USDT', chain_amount: (7n * 10n ** 18n).toString() },
    ]);
    expect(errors).toEqual([]);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 180_000);
});
