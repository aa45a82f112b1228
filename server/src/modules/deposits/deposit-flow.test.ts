import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mnemonicToSeedSync } from '@scure/bip39';
import { parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { networkCodes } from '../catalogue/catalogue.ts';
import { loadChainConfig } from '../chain/chain-config.ts';
import { accountXpubFromSeed } from '../chain/derive.ts';
import { createEvmWatcher } from '../chain/evm-watcher.ts';
import { DEV_ACCOUNT, devClient, type LocalChains, startLocalChains } from '../chain/local-chains.ts';

const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const xpubs = Object.fromEntries(networkCodes.map((n) => [n, accountXpubFromSeed(seed, n)]));

describe('deposit flow through the API on a real anvil', () => {
  const database = useTestDatabase();
  let app: App;
  let chains: LocalChains;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cw-deposit-flow-'));
    chains = await startLocalChains({ dataDir, networks: ['bsc'], hotWallets: {} });
    app = buildTestApp({ db: database.db, deposits: { xpubs } });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await chains?.stop();
  });

  it('address from the API, BNB sent on chain, confirming with the count going up, then successful and in the balance', async () => {
    const userId = await createUser(database.db);
    const headers = { [TEST_USER_HEADER]: userId };
    const { address, confirmations } = (
      await app.inject({ method: 'GET', url: '/api/wallet/deposit-address?coin=BNB&network=bsc', headers })
    ).json();
    expect(confirmations).toBe(64);
    const runtime = loadChainConfig(dataDir, {}).bsc;
    if (!runtime) throw new Error('no bsc chain');
    const client = devClient(runtime.rpcUrl, runtime.chainId);
    const hash = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: address,
      value: parseEther('0.2'),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    const watcher = createEvmWatcher({ db: database.db, runtime, startBlock: 0n });
    const tick = async () => {
      for (let i = 0; i < 20; i++) if (!(await watcher.tick()).behind) return;
    };
    await tick();
    const { id } = await database.db
      .selectFrom('deposits')
      .select('id')
      .where('tx_hash', '=', hash)
      .executeTakeFirstOrThrow();
    const detail = async () => (await app.inject({ method: 'GET', url: `/api/wallet/deposits/${id}`, headers })).json();
    expect(await detail()).toMatchObject({
      state: 'confirming',
      confirmations: 1,
      requiredConfirmations: 64,
      txHash: hash,
    });
    await client.mine({ blocks: 40 });
    await tick();
    expect(await detail()).toMatchObject({ state: 'confirming', confirmations: 41 });
    await client.mine({ blocks: 23 });
    await tick();
    expect(await detail()).toMatchObject({
      state: 'successful',
      confirmations: 64,
      amountMinor: parseEther('0.2').toString(),
    });
    const balances = (await app.inject({ method: 'GET', url: '/api/me/balances', headers })).json() as {
      asset: string;
      availableMinor: string;
    }[];
    expect(balances.find((b) => b.asset === 'BNB')?.availableMinor).toBe(parseEther('0.2').toString());
  }, 60_000);
});
