import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { startAnvil } from './anvil.ts';
import { type EvmChainRuntime, loadChainConfig } from './chain-config.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEvmWatcher } from './evm-watcher.ts';
import { wsHeads } from './head-subscriber.ts';
import { DEV_ACCOUNT, devClient, type LocalChains, startLocalChains } from './local-chains.ts';
import { startWatchers } from './runner.ts';
import type { TickReport } from './watcher.ts';

const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);
const until = async (check: () => boolean | Promise<boolean>, ms: number) => {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 20));
  }
  return false;
};

describe('deposits on push (newHeads over WebSocket)', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-push-'));
    chains = await startLocalChains({ dataDir, networks: ['ethereum'], hotWallets: {} });
    const loaded = loadChainConfig(dataDir, {}).ethereum;
    if (!loaded?.wsUrl) throw new Error('no ethereum chain with a WebSocket URL');
    runtime = loaded;
  });
  afterAll(() => chains?.stop());

  it('credits a deposit right after the block that confirms it, with a poll interval of a minute', async () => {
    const userId = await createUser(database.db);
    const address = (await depositAddressFor(database.db, userId, 'ethereum', xpub)) as Address;
    const ticks: TickReport[] = [];
    let subscribed = false;
    const runner = startWatchers([createEvmWatcher({ db: database.db, runtime, startBlock: 0n })], {
      pollMs: 60_000,
      heads: () =>
        wsHeads({
          url: runtime.wsUrl ?? '',
          onSubscribed: () => {
            subscribed = true;
          },
        }),
      onTick: (r) => ticks.push(r),
    });
    try {
      expect(await until(() => ticks.length > 0 && ticks.at(-1)?.behind === false, 10_000)).toBe(true);
      // Heads must flow before the deposit is mined (on a loaded machine the socket can come up later).
      expect(await until(() => subscribed, 10_000)).toBe(true);
      const client = devClient(runtime.rpcUrl, runtime.chainId);
      await client.wallet.sendTransaction({
        account: DEV_ACCOUNT,
        to: address,
        value: parseEther('0.02'),
        chain: null,
      });
      await client.mine({ blocks: runtime.confirmations });
      const credited = () =>
        database.db
          .selectFrom('deposits')
          .select('state')
          .where('user_id', '=', userId)
          .executeTakeFirst()
          .then((d) => d?.state === 'successful');
      // Only a pushed head can wake the loop this early: its timer is a minute away.
      expect(await until(credited, 10_000)).toBe(true);
    } finally {
      await runner.stop();
    }
  });

  it('falls back to polling while the socket is down and re-subscribes when the node is back', async () => {
    const anvil = await startAnvil({ chainId: 31337, blockTimeS: 1 });
    const logs: string[] = [];
    let heads = 0;
    const url = `ws://127.0.0.1:${anvil.port}`;
    const stop = wsHeads({ url, retryMs: 200, log: (m) => logs.push(m) }).subscribe(() => heads++);
    try {
      expect(await until(() => heads >= 1, 5_000)).toBe(true);
      await anvil.stop();
      expect(await until(() => logs.length > 0, 5_000)).toBe(true);
      const again = await startAnvil({ chainId: 31337, blockTimeS: 1, port: anvil.port });
      const before = heads;
      try {
        expect(await until(() => heads > before, 10_000)).toBe(true);
      } finally {
        await again.stop();
      }
    } finally {
      stop();
    }
  });
});
