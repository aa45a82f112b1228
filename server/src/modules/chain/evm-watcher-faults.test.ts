import { mnemonicToSeedSync } from '@scure/bip39';
import { type Address, parseEther } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { withdrawalsFrozen } from '../deposits/reorg-alerts.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEvmClient } from './evm-client.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from './local-chains.ts';
import { startTestChain } from './test-chain.ts';

/**
 * Issue 39 items 2 and 3: the EVM watcher behind a node that lags, errors, answers for another chain,
 * or returns incomplete logs (a fault proxy in front of anvil). None of it may look like a reorg,
 * freeze a user, skip a block, or halt the network for good.
 */
const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);

describe('EVM watcher behind a faulty node', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let proxy: FaultProxy;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-evm-faults-'));
    proxy = await startFaultProxy(runtime.rpcUrl);
    await client.mine({ blocks: 150 }); // room for a node 100 blocks behind
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await chains?.stop();
  });
  afterEach(() => {
    Object.assign(proxy.faults, { lagBlocks: 0, http429: 0, emptyLogs: 0, partialLogs: 0, maxLogRange: 0 });
    proxy.faults.failing.clear();
  });

  const watcher = (r: EvmChainRuntime = runtime) =>
    createEvmWatcher({ db: database.db, runtime: r, startBlock: 0n, client: createEvmClient(proxy.url) });
  async function caughtUp(w: ReturnType<typeof createEvmWatcher>) {
    for (let i = 0; i < 60; i++) if (!(await w.tick()).behind) return;
    throw new Error('watcher did not catch up');
  }
  async function depositor() {
    const userId = await createUser(database.db);
    return { userId, address: (await depositAddressFor(database.db, userId, 'ethereum', xpub)) as Address };
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
  async function mintUsdt(to: Address, units: bigint) {
    const hash = await client.wallet.writeContract({
      address: runtime.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [to, units],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    return hash;
  }
  const cursor = () =>
    database.db.selectFrom('chain_cursors').selectAll().where('network', '=', 'ethereum').executeTakeFirstOrThrow();
  const alerts = async () => ({
    reorg: (await database.db.selectFrom('reorg_alerts').select('id').execute()).length,
    chain: await database.db.selectFrom('chain_alerts').select(['kind', 'detail']).execute(),
  });

  it('a node 100 blocks behind the cursor is waited for: no reorg, nobody frozen, nothing skipped', async () => {
    const u = await depositor();
    const w = watcher();
    await sendEth(u.address, '1');
    await client.mine({ blocks: 8 });
    await caughtUp(w);
    expect(await balanceOf(database.db, 'user_available', u.userId, 'ETH')).toBe(parseEther('1'));
    const before = await cursor();

    proxy.faults.lagBlocks = 100; // failover to a node that is still syncing
    await sendEth(u.address, '0.5');
    for (let i = 0; i < 3; i++) {
      const report = await w.tick();
      expect(report.reorgForkBlock).toBeUndefined();
      expect(report).toMatchObject({ nodeBehind: true, observed: 0, credited: 0 });
    }
    expect((await cursor()).block_number).toBe(before.block_number);
    expect((await alerts()).reorg).toBe(0);
    expect(await withdrawalsFrozen(database.db, u.userId)).toBe(false);

    proxy.faults.lagBlocks = 0;
    await client.mine({ blocks: 6 });
    await caughtUp(w);
    expect(await balanceOf(database.db, 'user_available', u.userId, 'ETH')).toBe(parseEther('1.5'));
    expect((await alerts()).reorg).toBe(0);
  }, 120_000);

  it('an RPC error while checking blocks fails the tick and changes nothing: no rewind, no skipped block', async () => {
    const u = await depositor();
    const w = watcher();
    await caughtUp(w);
    const before = await cursor();
    const storedBefore = await database.db.selectFrom('chain_blocks').select('block_number').execute();
    proxy.faults.failing.add('eth_getBlockByNumber'); // timeouts, 429s after retries, ...
    await sendEth(u.address, '0.7');
    await expect(w.tick()).rejects.toThrow();
    await expect(w.tick()).rejects.toThrow();
    expect(await cursor()).toMatchObject({ block_number: before.block_number, block_hash: before.block_hash });
    expect(await database.db.selectFrom('chain_blocks').select('block_number').execute()).toHaveLength(
      storedBefore.length,
    );

    proxy.faults.failing.clear();
    await client.mine({ blocks: 6 });
    await caughtUp(w);
    expect(await balanceOf(database.db, 'user_available', u.userId, 'ETH')).toBe(parseEther('0.7'));
    expect((await alerts()).reorg).toBe(0);
  }, 120_000);

  it('eth_getLogs answering [] for a block it has not indexed: the token deposit is still found (bloom, receipts)', async () => {
    const u = await depositor();
    const w = watcher();
    await caughtUp(w);
    proxy.faults.emptyLogs = 1;
    await mintUsdt(u.address, 10_000_000n);
    await caughtUp(w);
    expect(proxy.faults.emptyLogs).toBe(0);
    await client.mine({ blocks: 6 });
    await caughtUp(w);
    expect(await balanceOf(database.db, 'user_available', u.userId, 'USDT')).toBe(10_000_000n);
  }, 120_000);

  it('eth_getLogs dropping one log of a block (a partial answer): the deposit is found (bloom has its address)', async () => {
    const u = await depositor();
    const other: Address = '0x000000000000000000000000000000000000dEaD'; // not a deposit address
    const w = watcher();
    await caughtUp(w);
    // Two USDT transfers in one block; the node's answer loses the second (ours), keeps the first.
    await client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    try {
      const mint = (to: Address, units: bigint) =>
        client.wallet.writeContract({
          address: runtime.tokens.USDT as Address,
          abi: artifact.abi,
          functionName: 'mint',
          args: [to, units],
          account: DEV_ACCOUNT,
          chain: null,
        });
      await mint(other, 1_000_000n);
      const hash = await mint(u.address, 9_000_000n);
      await client.mine({ blocks: 1 });
      await client.waitForTransactionReceipt({ hash });
    } finally {
      await client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
    }
    proxy.faults.partialLogs = 1;
    await client.mine({ blocks: 7 });
    await caughtUp(w);
    expect(proxy.faults.partialLogs).toBe(0);
    expect(await balanceOf(database.db, 'user_available', u.userId, 'USDT')).toBe(9_000_000n);
  }, 120_000);

  it('a block-range limit on eth_getLogs does not halt the network', async () => {
    const u = await depositor();
    const w = watcher();
    await caughtUp(w);
    proxy.faults.maxLogRange = 1;
    await mintUsdt(u.address, 12_000_000n);
    await client.mine({ blocks: 7 });
    await caughtUp(w);
    expect(await balanceOf(database.db, 'user_available', u.userId, 'USDT')).toBe(12_000_000n);
  }, 120_000);

  it('a node on another chain (a testnet URL) is refused with one chain alert; nothing is recorded', async () => {
    const u = await depositor();
    await sendEth(u.address, '0.3');
    const w = watcher({ ...runtime, chainId: 1 });
    await expect(w.tick()).rejects.toThrow(/chain 31337/);
    await expect(w.tick()).rejects.toThrow(/chain 31337/);
    expect((await alerts()).chain.filter((a) => a.kind === 'chain_id_mismatch')).toHaveLength(1);
    expect(
      await database.db.selectFrom('deposits').select('id').where('user_id', '=', u.userId).execute(),
    ).toHaveLength(0);
  }, 120_000);

  it('no stored block hash on the chain: a chain alert and a halt; the cursor never jumps to the tip', async () => {
    const w = watcher();
    await caughtUp(w);
    const forged = `0x${'ab'.repeat(32)}`;
    await database.db
      .updateTable('chain_blocks')
      .set({ block_hash: forged })
      .where('network', '=', 'ethereum')
      .execute();
    await database.db
      .updateTable('chain_cursors')
      .set({ block_hash: forged })
      .where('network', '=', 'ethereum')
      .execute();
    const before = await cursor();
    await client.mine({ blocks: 3 });
    await expect(w.tick()).rejects.toThrow(/no stored block hash/);
    await expect(w.tick()).rejects.toThrow(/no stored block hash/);
    expect(await cursor()).toMatchObject({ block_number: before.block_number, block_hash: forged });
    expect((await alerts()).chain.filter((a) => a.kind === 'fork_not_found')).toHaveLength(1);
  }, 120_000);
});
