import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { fence, LeaseLostError, release, tryAcquire } from '../leases/lease.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { type EvmChainRuntime, loadChainConfig } from './chain-config.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import { DEV_ACCOUNT, devClient, type LocalChains, startLocalChains } from './local-chains.ts';

const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const xpub = accountXpubFromSeed(seed, 'ethereum');

describe('EVM deposit watcher on a real anvil', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-evm-watcher-'));
    // Automine (no block time): the test mines blocks itself with anvil_mine.
    chains = await startLocalChains({ dataDir, networks: ['ethereum'], hotWallets: {} });
    const loaded = loadChainConfig(dataDir, {}).ethereum;
    if (!loaded) throw new Error('no ethereum chain');
    runtime = loaded;
    client = devClient(runtime.rpcUrl, runtime.chainId);
  });
  afterAll(() => chains?.stop());

  const watcher = () => createEvmWatcher({ db: database.db, runtime, startBlock: 0n });

  async function tickUntilCaughtUp(w = watcher()) {
    for (let i = 0; i < 50; i++) if (!(await w.tick()).behind) return;
    throw new Error('watcher did not catch up');
  }

  async function deposit(where: { network: NetworkCode; txHashLike?: string; to: string }) {
    return database.db
      .selectFrom('deposits')
      .selectAll()
      .where('network', '=', where.network)
      .where('to_address', '=', where.to)
      .orderBy('created_at')
      .execute();
  }

  async function newDepositor() {
    const userId = await createUser(database.db);
    const address = (await depositAddressFor(database.db, userId, 'ethereum', xpub)) as Address;
    return { userId, address };
  }

  async function sendEth(to: Address, ether: string) {
    const hash = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to,
      value: parseEther(ether),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  }

  async function mintToken(coin: 'USDT' | 'TUSD', to: Address, units: bigint) {
    const token = runtime.tokens[coin];
    if (!token) throw new Error(`no ${coin}`);
    const hash = await client.wallet.writeContract({
      address: token,
      abi: artifact.abi,
      functionName: 'mint',
      args: [to, units],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  }

  it('credits a native ETH deposit exactly once after 6 confirmations, also across watcher restarts', async () => {
    const { userId, address } = await newDepositor();
    const hash = await sendEth(address, '1.5');
    await tickUntilCaughtUp();
    let [d] = await deposit({ network: 'ethereum', to: address });
    expect(d).toMatchObject({ state: 'confirming', confirmations: 1, required_confirmations: 6, tx_hash: hash });
    expect(d?.amount_minor).toBe(parseEther('1.5').toString());

    await client.mine({ blocks: 4 });
    await tickUntilCaughtUp();
    [d] = await deposit({ network: 'ethereum', to: address });
    expect(d).toMatchObject({ state: 'confirming', confirmations: 5 });
    expect(await balanceOf(database.db, 'user_available', userId, 'ETH')).toBe(0n);

    await client.mine({ blocks: 1 });
    await tickUntilCaughtUp();
    [d] = await deposit({ network: 'ethereum', to: address });
    expect(d).toMatchObject({ state: 'successful', confirmations: 6 });
    expect(d?.credited_transfer_id).not.toBeNull();
    expect(await balanceOf(database.db, 'user_available', userId, 'ETH')).toBe(parseEther('1.5'));

    // Restart from scratch (cursor lost): the rescan finds the same transfer and credits nothing more.
    await database.db.deleteFrom('chain_cursors').execute();
    await client.mine({ blocks: 3 });
    await tickUntilCaughtUp(watcher());
    const rows = await deposit({ network: 'ethereum', to: address });
    expect(rows).toHaveLength(1);
    expect(await balanceOf(database.db, 'user_available', userId, 'ETH')).toBe(parseEther('1.5'));
    const transfers = await database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('idempotency_key', '=', `deposit:ethereum:${hash}:-1`)
      .execute();
    expect(transfers).toHaveLength(1);
  });

  it('under a lease: a watcher whose lease was taken over writes nothing; its successor carries on', async () => {
    const { address } = await newDepositor();
    await tickUntilCaughtUp();
    const cursorBefore = await database.db
      .selectFrom('chain_cursors')
      .selectAll()
      .where('network', '=', 'ethereum')
      .executeTakeFirstOrThrow();
    const old = await tryAcquire(database.db, 'background', 'instance-a', 60_000);
    if (old === null) throw new Error('no lease');
    await release(database.db, 'background', 'instance-a');
    const current = await tryAcquire(database.db, 'background', 'instance-b', 60_000);
    if (current === null) throw new Error('no lease');
    const fencedBy = (token: bigint) =>
      createEvmWatcher({ db: database.db, runtime, startBlock: 0n, fence: (trx) => fence(trx, 'background', token) });

    await sendEth(address, '0.25');
    await expect(fencedBy(old).tick()).rejects.toBeInstanceOf(LeaseLostError);
    const cursorAfter = await database.db
      .selectFrom('chain_cursors')
      .selectAll()
      .where('network', '=', 'ethereum')
      .executeTakeFirstOrThrow();
    expect(cursorAfter.block_number).toBe(cursorBefore.block_number);
    expect(await deposit({ network: 'ethereum', to: address })).toHaveLength(0);

    await tickUntilCaughtUp(fencedBy(current));
    expect(await deposit({ network: 'ethereum', to: address })).toHaveLength(1);
    await release(database.db, 'background', 'instance-b');
  });

  it('credits an ERC-20 deposit (Transfer log) in ledger units after 6 confirmations', async () => {
    const { userId, address } = await newDepositor();
    await mintToken('USDT', address, 25_500_000n); // 25.5 USDT (6 decimals)
    const w = watcher();
    await tickUntilCaughtUp(w);
    let [d] = await deposit({ network: 'ethereum', to: address });
    expect(d).toMatchObject({ coin: 'USDT', state: 'confirming', amount_minor: '25500000' });
    expect(d?.output_index).toBeGreaterThanOrEqual(0);
    await client.mine({ blocks: 5 });
    await tickUntilCaughtUp(w);
    [d] = await deposit({ network: 'ethereum', to: address });
    expect(d?.state).toBe('successful');
    expect(await balanceOf(database.db, 'user_available', userId, 'USDT')).toBe(25_500_000n);
  });

  it('records a deposit below the minimum as failed (below_minimum) and credits nothing', async () => {
    const { userId, address } = await newDepositor();
    await sendEth(address, '0.0001'); // minimum 0.001 ETH
    await client.mine({ blocks: 6 });
    await tickUntilCaughtUp();
    const [d] = await deposit({ network: 'ethereum', to: address });
    expect(d).toMatchObject({ state: 'failed', reason: 'below_minimum', credited_transfer_id: null });
    expect(await balanceOf(database.db, 'user_available', userId, 'ETH')).toBe(0n);
  });

  it('reorg (evm_snapshot/evm_revert): nothing is credited before its confirmations, a reverted deposit never', async () => {
    const { userId, address } = await newDepositor();
    await tickUntilCaughtUp();
    const snapshot = await client.snapshot();
    await sendEth(address, '2');
    await client.mine({ blocks: 3 });
    const w = watcher();
    await tickUntilCaughtUp(w);
    let [d] = await deposit({ network: 'ethereum', to: address });
    expect(d).toMatchObject({ state: 'confirming', confirmations: 4 });
    expect(await balanceOf(database.db, 'user_available', userId, 'ETH')).toBe(0n);

    // The deposit's blocks are replaced by a longer fork without it.
    await client.revert({ id: snapshot });
    await client.increaseTime({ seconds: 60 });
    await client.mine({ blocks: 12 });
    const reports = [];
    for (let i = 0; i < 10; i++) {
      const r = await w.tick();
      reports.push(r);
      if (!r.behind) break;
    }
    expect(reports.some((r) => r.reorgForkBlock !== undefined)).toBe(true);
    [d] = await deposit({ network: 'ethereum', to: address });
    expect(d).toMatchObject({ state: 'failed', reason: 'reorged', credited_transfer_id: null });
    await client.mine({ blocks: 10 });
    await tickUntilCaughtUp(w);
    expect(await balanceOf(database.db, 'user_available', userId, 'ETH')).toBe(0n);

    // Cursor and stored hashes agree with the new chain.
    const cursor = await database.db.selectFrom('chain_cursors').selectAll().executeTakeFirstOrThrow();
    const block = await client.getBlock({ blockNumber: BigInt(cursor.block_number) });
    expect(block.hash).toBe(cursor.block_hash);
  });

  it('a deposit re-mined in another block after a reorg is revived and credited once', async () => {
    const { userId, address } = await newDepositor();
    await tickUntilCaughtUp();
    const snapshot = await client.snapshot();
    const hash = await sendEth(address, '0.5');
    const w = watcher();
    await tickUntilCaughtUp(w);
    const raw = await rawOf(hash);
    await client.revert({ id: snapshot });
    await client.increaseTime({ seconds: 60 });
    await client.mine({ blocks: 2 });
    // The same signed transaction lands again, two blocks later than before.
    await client.sendRawTransaction({ serializedTransaction: raw });
    await client.mine({ blocks: 8 });
    for (let i = 0; i < 20; i++) await w.tick();
    const rows = await deposit({ network: 'ethereum', to: address });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: 'successful', tx_hash: hash });
    expect(await balanceOf(database.db, 'user_available', userId, 'ETH')).toBe(parseEther('0.5'));
  });

  async function rawOf(hash: `0x${string}`) {
    const raw = await client.request({ method: 'eth_getRawTransactionByHash' as never, params: [hash] as never });
    return raw as `0x${string}`;
  }
});
