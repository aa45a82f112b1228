import { mnemonicToSeedSync } from '@scure/bip39';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { deployBatchPayer } from './batch-payer.ts';
import type { EvmChainRuntime } from './chain-config.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEvmClient } from './evm-client.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import { type FaultProxy, startFaultProxy } from './fault-proxy.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from './local-chains.ts';
import { startTestChain } from './test-chain.ts';

/**
 * Issue 39 item 5's fallback: a node that cannot trace internal calls. Native coin a contract sent to a
 * deposit address is not a deposit there, but it does not go unnoticed: the address's balance exceeds
 * what the books explain, and a chain alert says so. Tracing configured against a node without the
 * debug API is found out by one probe at start, with a warning, instead of failing every tick.
 */
const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);

describe('unexplained native balance on deposit addresses (no tracing)', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let proxy: FaultProxy;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-balance-check-'));
    proxy = await startFaultProxy(runtime.rpcUrl);
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    await chains?.stop();
  });

  async function caughtUp(w: ReturnType<typeof createEvmWatcher>) {
    for (let i = 0; i < 60; i++) if (!(await w.tick()).behind) return;
    throw new Error('watcher did not catch up');
  }
  async function depositor() {
    const userId = await createUser(database.db);
    return { userId, address: (await depositAddressFor(database.db, userId, 'ethereum', xpub)) as Address };
  }
  async function multisend(to: Address[], ether: string[]) {
    const payer = await deployBatchPayer(client);
    const values = ether.map((e) => parseEther(e));
    const hash = await client.wallet.writeContract({
      address: payer.address,
      abi: payer.abi,
      functionName: 'payNative',
      args: [to, values],
      value: values.reduce((a, b) => a + b, 0n),
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
  }
  const unexplained = () =>
    database.db
      .selectFrom('chain_alerts')
      .select(['dedupe_key', 'detail'])
      .where('kind', '=', 'unexplained_balance')
      .execute();

  it('tracing off: coin sent by a contract raises one unexplained_balance alert; a plain deposit none', async () => {
    const internal = await depositor();
    const plain = await depositor();
    const hash = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: plain.address,
      value: parseEther('2'),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    await multisend([internal.address], ['1']);
    await client.mine({ blocks: 6 });
    const w = createEvmWatcher({ db: database.db, runtime: { ...runtime, traceInternal: false }, startBlock: 0n });
    await caughtUp(w);
    await caughtUp(w); // a second pass: still one alert
    expect(await balanceOf(database.db, 'user_available', plain.userId, 'ETH')).toBe(parseEther('2'));
    expect(await balanceOf(database.db, 'user_available', internal.userId, 'ETH')).toBe(0n); // not a deposit here
    const alerts = await unexplained();
    expect(alerts.map((a) => a.dedupe_key)).toEqual([`address:${internal.address}`]);
    expect(alerts[0]?.detail).toContain(`${parseEther('1')} unexplained`);
  }, 120_000);

  it('tracing configured, node without the debug API: one probe, a warning, ticks go on, the balance check alerts', async () => {
    await database.db.deleteFrom('chain_alerts').execute();
    proxy.faults.missing.add('debug_traceBlockByHash');
    proxy.faults.missing.add('debug_traceBlockByNumber');
    const internal = await depositor();
    await multisend([internal.address], ['0.3']);
    await client.mine({ blocks: 6 });
    const logs: string[] = [];
    const w = createEvmWatcher({
      db: database.db,
      runtime: { ...runtime, traceInternal: true },
      startBlock: 0n,
      client: createEvmClient(proxy.url),
      log: (m) => logs.push(m),
    });
    await caughtUp(w);
    await w.tick();
    expect(proxy.calls.get('debug_traceBlockByHash')).toBe(1);
    expect(logs.filter((m) => /no debug API/.test(m))).toHaveLength(1);
    // (the first test's address is found again too: its alert was cleared above)
    expect((await unexplained()).map((a) => a.dedupe_key)).toContain(`address:${internal.address}`);
  }, 120_000);
});
