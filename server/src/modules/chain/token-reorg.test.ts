import { mnemonicToSeedSync } from '@scure/bip39';
import { type Address, type Hash, type Hex, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { type BatchPayer, deployBatchPayer } from './batch-payer.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from './local-chains.ts';
import { startTestChain } from './test-chain.ts';

/**
 * Issue 39 item 1: token deposits are keyed by the log's position within its transaction, so a
 * transaction re-mined after a reorg (behind another transaction's logs) is matched to its own rows:
 * never revived into another user's row, never credited twice, never silently re-amounted.
 */
const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);
/** anvil's second dev account (unlocked): sends the transaction that lands first in the re-mined block. */
const OTHER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const STRANGER: Address = '0x000000000000000000000000000000000000dEaD';

describe('token deposits across reorgs (anvil evm_snapshot / evm_revert)', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let usdt: Address;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-token-reorg-'));
    usdt = runtime.tokens.USDT as Address;
    await mint(OTHER, 1_000_000_000n);
  }, 120_000);
  afterAll(() => chains?.stop());

  const watcher = () => createEvmWatcher({ db: database.db, runtime, startBlock: 0n });
  async function caughtUp(w: ReturnType<typeof createEvmWatcher>) {
    for (let i = 0; i < 60; i++) if (!(await w.tick()).behind) return;
    throw new Error('watcher did not catch up');
  }
  async function depositor() {
    const userId = await createUser(database.db);
    return { userId, address: (await depositAddressFor(database.db, userId, 'ethereum', xpub)) as Address };
  }
  async function mined(hash: Hash) {
    await client.waitForTransactionReceipt({ hash });
    return hash;
  }
  async function mint(to: Address, units: bigint) {
    return mined(
      await client.wallet.writeContract({
        address: usdt,
        abi: artifact.abi,
        functionName: 'mint',
        args: [to, units],
        account: DEV_ACCOUNT,
        chain: null,
      }),
    );
  }
  async function pay(payer: BatchPayer, from: Address, to: Address[], amounts: bigint[], fee?: boolean) {
    return client.wallet.writeContract({
      address: payer.address,
      abi: payer.abi,
      functionName: 'payTokens',
      args: [usdt, to, amounts],
      account: from,
      chain: null,
      ...(fee ? { maxPriorityFeePerGas: parseGwei('50'), maxFeePerGas: parseGwei('100') } : {}),
    });
  }
  /** One token log from OTHER, paying the stranger: shifts the block's log indexes by one. */
  const shiftByOneLog = () =>
    client.wallet.writeContract({
      address: usdt,
      abi: artifact.abi,
      functionName: 'transfer',
      args: [STRANGER, 1_000_000n],
      account: OTHER,
      chain: null,
      maxPriorityFeePerGas: parseGwei('50'),
      maxFeePerGas: parseGwei('100'),
    });
  const rawOf = async (hash: Hash) =>
    (await client.request({ method: 'eth_getRawTransactionByHash' as never, params: [hash] as never })) as Hex;

  /** Mines `first` and then the re-sent transaction in one block, in that order. */
  async function remineBehind(first: () => Promise<Hash>, raw: Hex) {
    await client.setAutomine(false);
    const x = await first();
    const t = await client.sendRawTransaction({ serializedTransaction: raw });
    await client.mine({ blocks: 1 });
    await client.setAutomine(true);
    const [rx, rt] = await Promise.all([x, t].map((hash) => client.getTransactionReceipt({ hash })));
    expect(rx?.blockNumber).toBe(rt?.blockNumber);
    expect(rx?.transactionIndex).toBeLessThan(rt?.transactionIndex ?? 0);
  }
  const credits = async (txHash: string) =>
    (
      await database.db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('idempotency_key', 'like', `deposit:ethereum:${txHash}:%`)
        .execute()
    ).length;

  it('shallow reorg: a transaction paying A 100 and B 5 re-mined one log later credits A 100 and B 5', async () => {
    const payer = await deployBatchPayer(client);
    await mint(payer.address, 1_000_000_000n);
    const a = await depositor();
    const b = await depositor();
    const w = watcher();
    await caughtUp(w);
    const snapshot = await client.snapshot();
    const tx = await mined(await pay(payer, DEV_ACCOUNT, [a.address, b.address], [100_000_000n, 5_000_000n]));
    await caughtUp(w);
    const raw = await rawOf(tx);
    await client.revert({ id: snapshot });
    await remineBehind(shiftByOneLog, raw);
    await client.mine({ blocks: 8 });
    await caughtUp(w);

    expect(await balanceOf(database.db, 'user_available', a.userId, 'USDT')).toBe(100_000_000n);
    expect(await balanceOf(database.db, 'user_available', b.userId, 'USDT')).toBe(5_000_000n);
    expect(await credits(tx)).toBe(2);
    const rows = await database.db
      .selectFrom('deposits')
      .selectAll()
      .where('tx_hash', '=', tx)
      .orderBy('output_index')
      .execute();
    expect(rows.map((r) => [r.to_address, r.output_index, r.state, r.chain_amount])).toEqual([
      [a.address, 1, 'successful', '100000000'],
      [b.address, 2, 'successful', '5000000'],
    ]);
  }, 120_000);

  it('deep reorg: a credited deposit re-mined at another log index is not credited again', async () => {
    const c = await depositor();
    const w = watcher();
    await caughtUp(w);
    const snapshot = await client.snapshot();
    const tx = await mint(c.address, 50_000_000n);
    await client.mine({ blocks: 8 });
    await caughtUp(w);
    expect(await balanceOf(database.db, 'user_available', c.userId, 'USDT')).toBe(50_000_000n);
    const raw = await rawOf(tx);
    await client.revert({ id: snapshot });
    await remineBehind(shiftByOneLog, raw);
    await client.mine({ blocks: 12 });
    await caughtUp(w);

    expect(await balanceOf(database.db, 'user_available', c.userId, 'USDT')).toBe(50_000_000n);
    expect(await credits(tx)).toBe(1);
    expect(await database.db.selectFrom('deposits').select('id').where('tx_hash', '=', tx).execute()).toHaveLength(1);
  }, 120_000);

  it('a re-mined transaction that pays a different amount is a new deposit and an alert, never an overwrite', async () => {
    const payer = await deployBatchPayer(client);
    await mint(payer.address, 100_000_000n);
    const d = await depositor();
    const w = watcher();
    await caughtUp(w);
    const snapshot = await client.snapshot();
    const tx = await mined(await pay(payer, DEV_ACCOUNT, [d.address], [100_000_000n]));
    await caughtUp(w);
    const raw = await rawOf(tx);
    await client.revert({ id: snapshot });
    // Another payment from the same contract lands first: the re-mined transaction finds 60 left.
    await remineBehind(() => pay(payer, OTHER, [STRANGER], [40_000_000n], true), raw);
    await client.mine({ blocks: 8 });
    await caughtUp(w);

    expect(await balanceOf(database.db, 'user_available', d.userId, 'USDT')).toBe(60_000_000n);
    const rows = await database.db
      .selectFrom('deposits')
      .selectAll()
      .where('tx_hash', '=', tx)
      .orderBy('output_index')
      .execute();
    expect(rows.map((r) => [r.output_index, r.state, r.reason, r.chain_amount])).toEqual([
      [1, 'failed', 'reorged', '100000000'],
      [1_000_001, 'successful', null, '60000000'],
    ]);
    const alerts = await database.db
      .selectFrom('chain_alerts')
      .selectAll()
      .where('kind', '=', 'remined_transfer_differs')
      .execute();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.detail).toContain(tx);
  }, 120_000);
});
