import { type Address, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import { createEvmWatcher } from '../modules/chain/evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { depositAddressFor } from '../modules/deposits/addresses.ts';
import { createUser } from '../test/app.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner } from './signer.ts';
import { sweepKeys } from './test-helpers.ts';

const { hot, xpub } = sweepKeys;

/**
 * One address whose key does not derive it (a wrong index, an older xpub in a restored database) is
 * skipped, loudly, and the other addresses of the network are still swept (review 37b, finding 6).
 * Real anvil with the real watcher.
 */
describe('a sweep candidate whose key does not derive its address', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-sweep-key-', hot.address));
  }, 120_000);
  afterAll(() => chains?.stop());

  it('is skipped with a loud log, and the next candidate is swept', async () => {
    const db = database.db;
    const bad = (await depositAddressFor(db, await createUser(db), 'ethereum', xpub)) as Address;
    const good = (await depositAddressFor(db, await createUser(db), 'ethereum', xpub)) as Address;
    const watcher = createEvmWatcher({ db, runtime, startBlock: 0n });
    // The bad address holds more, so it ranks first in every round.
    for (const [to, eth] of [
      [bad, '2'],
      [good, '1'],
    ] as const) {
      const hash = await client.wallet.sendTransaction({
        account: DEV_ACCOUNT,
        to,
        value: parseEther(eth),
        chain: null,
      });
      await client.waitForTransactionReceipt({ hash });
    }
    await client.mine({ blocks: 8 });
    for (let i = 0; i < 60 && (await watcher.tick()).behind; i++);
    const credited = await db.selectFrom('deposits').select('state').execute();
    expect(credited.map((d) => d.state)).toEqual(['successful', 'successful']);
    // The row of the bad address now names a key that derives another address.
    await db.updateTable('deposit_addresses').set({ derivation_index: 999_999 }).where('address', '=', bad).execute();

    const logs: string[] = [];
    const signer = createSigner({
      db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      depositAccount: sweepKeys.depositAccount,
      sweepIntervalMs: 0,
      log: (msg) => logs.push(msg),
    });
    const result = await signer.tick();
    expect(result.sweeps).toBe(1);
    const rows = await db.selectFrom('sweep_transactions').select(['deposit_address', 'kind']).execute();
    expect(rows).toEqual([{ deposit_address: good, kind: 'sweep' }]);
    expect(logs.some((m) => m.includes('KEY MISMATCH'))).toBe(true);
  });
});
