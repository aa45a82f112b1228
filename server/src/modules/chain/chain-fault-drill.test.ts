import { mnemonicToSeedSync } from '@scure/bip39';
import { type Address, type Hash, type Hex, parseEther, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../../contracts/test-token.json' with { type: 'json' };
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { reconcile } from '../ledger/reconcile.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEvmClient } from './evm-client.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from './local-chains.ts';
import { startTestChain } from './test-chain.ts';

/**
 * The chain-fault drill of issue 39: one watcher, through a faulty node, lives through a failover to a
 * node 100 blocks behind, a stretch of HTTP 429s, an eth_getLogs that answers [] once, and a reorg of
 * two blocks that re-mines a native and a token deposit (the token one behind another transaction's
 * log). Afterwards every deposit is credited exactly once, with its exact amount, nobody is frozen, no
 * alert was raised, and the ledger reconciles.
 */
const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);
const OTHER: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8';
const STRANGER: Address = '0x000000000000000000000000000000000000dEaD';

describe('chain-fault drill (anvil behind a fault proxy)', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let proxy: FaultProxy;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-fault-drill-'));
    proxy = await startFaultProxy(runtime.rpcUrl);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await chains?.stop();
  });

  const mined = async (hash: Hash) => {
    await client.waitForTransactionReceipt({ hash });
    return hash;
  };
  const sendEth = (to: Address, ether: string) =>
    client.wallet.sendTransaction({ account: DEV_ACCOUNT, to, value: parseEther(ether), chain: null }).then(mined);
  const mintUsdt = (to: Address, units: bigint) =>
    client.wallet
      .writeContract({
        address: runtime.tokens.USDT as Address,
        abi: artifact.abi,
        functionName: 'mint',
        args: [to, units],
        account: DEV_ACCOUNT,
        chain: null,
      })
      .then(mined);
  const rawOf = async (hash: Hash) =>
    (await client.request({ method: 'eth_getRawTransactionByHash' as never, params: [hash] as never })) as Hex;

  it('lag 100, 429s, an empty log answer and a 2-block reorg: each deposit credited exactly once, nobody frozen', async () => {
    const db = database.db;
    const users = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const userId = await createUser(db);
        return { userId, address: (await depositAddressFor(db, userId, 'ethereum', xpub)) as Address };
      }),
    );
    const [u1, u2, u3, u4, u5] = users as [
      (typeof users)[0],
      (typeof users)[0],
      (typeof users)[0],
      (typeof users)[0],
      (typeof users)[0],
    ];
    await mintUsdt(OTHER, 1_000_000_000n);
    await client.mine({ blocks: 150 });
    const watcher = createEvmWatcher({ db, runtime, startBlock: 0n, client: createEvmClient(proxy.url) });
    const errors: string[] = [];
    const forks: bigint[] = [];
    /** Ticks like the runner would (an error is logged and retried), until caught up and idle. */
    async function drive(maxTicks = 200) {
      for (let i = 0; i < maxTicks; i++) {
        try {
          const r = await watcher.tick();
          if (r.reorgForkBlock !== undefined) forks.push(r.reorgForkBlock);
          if (!r.behind && !r.nodeBehind) return;
        } catch (err) {
          errors.push((err as Error).message.split('\n')[0] ?? '');
        }
      }
      throw new Error('watcher did not catch up');
    }
    await drive();

    // 1. Failover to a node 100 blocks behind; deposits keep arriving on the real chain.
    proxy.faults.lagBlocks = 100;
    const d1 = await sendEth(u1.address, '1');
    const d2 = await mintUsdt(u2.address, 20_000_000n);
    for (let i = 0; i < 5; i++) expect((await watcher.tick()).nodeBehind).toBe(true);
    proxy.faults.lagBlocks = 0;

    // 2. The node answers 429 for a while (viem retries each call, then the tick fails and is retried).
    proxy.faults.http429 = 16;
    await drive();
    expect(proxy.faults.http429).toBe(0);

    // 3. One eth_getLogs answers [] for a block holding a deposit.
    proxy.faults.emptyLogs = 1;
    const d3 = await mintUsdt(u3.address, 30_000_000n);
    await drive();
    expect(proxy.faults.emptyLogs).toBe(0);

    // 4. A reorg of two blocks: both deposits' blocks replaced; both transactions re-mined later, the
    //    token one behind another transaction's Transfer log (its index in the block moves by one).
    const forkPoint = await client.getBlockNumber();
    const snapshot = await client.snapshot();
    const d4 = await sendEth(u4.address, '0.4');
    const d5 = await mintUsdt(u5.address, 50_000_000n);
    await drive();
    const [raw4, raw5] = [await rawOf(d4), await rawOf(d5)];
    await client.revert({ id: snapshot });
    await client.increaseTime({ seconds: 30 });
    await client.mine({ blocks: 1 });
    await client.setAutomine(false);
    await client.wallet.writeContract({
      address: runtime.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'transfer',
      args: [STRANGER, 1_000_000n],
      account: OTHER,
      chain: null,
      maxPriorityFeePerGas: parseGwei('50'),
      maxFeePerGas: parseGwei('100'),
    });
    await client.sendRawTransaction({ serializedTransaction: raw4 });
    await client.sendRawTransaction({ serializedTransaction: raw5 });
    await client.mine({ blocks: 1 });
    await client.setAutomine(true);
    await client.mine({ blocks: 10 });
    await drive();

    const want: [typeof u1, string, bigint, Hash][] = [
      [u1, 'ETH', parseEther('1'), d1],
      [u2, 'USDT', 20_000_000n, d2],
      [u3, 'USDT', 30_000_000n, d3],
      [u4, 'ETH', parseEther('0.4'), d4],
      [u5, 'USDT', 50_000_000n, d5],
    ];
    for (const [u, coin, amount, tx] of want) {
      expect(await balanceOf(db, 'user_available', u.userId, coin as 'ETH' | 'USDT')).toBe(amount);
      const credits = await db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('idempotency_key', 'like', `deposit:ethereum:${tx}:%`)
        .execute();
      expect(credits).toHaveLength(1);
    }
    expect(await db.selectFrom('reorg_alerts').select('id').execute()).toHaveLength(0);
    expect(await db.selectFrom('withdrawal_freezes').select('user_id').execute()).toHaveLength(0);
    expect(await db.selectFrom('chain_alerts').select('kind').execute()).toHaveLength(0);
    expect(errors.length).toBeGreaterThan(0); // the 429s did fail ticks
    expect(forks).toEqual([forkPoint]); // one reorg, found at its real fork point (two blocks deep)
    expect((await reconcile(db)).ok).toBe(true);
  }, 300_000);
});
