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
import { createEvmWatcher } from './evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from './local-chains.ts';
import { startTestChain } from './test-chain.ts';

/** Issue 39 item 5: native coin a contract sends (a multisend, a smart-account wallet) is a deposit too. */
const xpub = accountXpubFromSeed(
  mnemonicToSeedSync('abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'),
  'ethereum',
);

describe('native coin sent by a contract (debug_traceBlockByHash, callTracer) on anvil', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;

  beforeAll(async () => {
    ({ chains, runtime, client } = await startTestChain('cw-internal-'));
  }, 120_000);
  afterAll(() => chains?.stop());

  async function caughtUp(w: ReturnType<typeof createEvmWatcher>) {
    for (let i = 0; i < 60; i++) if (!(await w.tick()).behind) return;
    throw new Error('watcher did not catch up');
  }
  async function depositor() {
    const userId = await createUser(database.db);
    return { userId, address: (await depositAddressFor(database.db, userId, 'ethereum', xpub)) as Address };
  }

  it('a multisend paying A twice and B once credits each internal payment once, also after a rescan', async () => {
    expect(runtime.traceInternal).toBe(true);
    const payer = await deployBatchPayer(client);
    const a = await depositor();
    const b = await depositor();
    const hash = await client.wallet.writeContract({
      address: payer.address,
      abi: payer.abi,
      functionName: 'payNative',
      args: [
        [a.address, b.address, a.address],
        [parseEther('1'), parseEther('0.5'), parseEther('0.25')],
      ],
      value: parseEther('1.75'),
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    await client.mine({ blocks: 6 });
    const w = createEvmWatcher({ db: database.db, runtime, startBlock: 0n });
    await caughtUp(w);
    expect(await balanceOf(database.db, 'user_available', a.userId, 'ETH')).toBe(parseEther('1.25'));
    expect(await balanceOf(database.db, 'user_available', b.userId, 'ETH')).toBe(parseEther('0.5'));
    const rows = await database.db
      .selectFrom('deposits')
      .selectAll()
      .where('tx_hash', '=', hash)
      .orderBy('output_index', 'desc')
      .execute();
    expect(rows.map((r) => [r.to_address, r.output_index, r.state])).toEqual([
      [a.address, -2, 'successful'],
      [b.address, -3, 'successful'],
      [a.address, -4, 'successful'],
    ]);

    await database.db.deleteFrom('chain_cursors').execute();
    await caughtUp(createEvmWatcher({ db: database.db, runtime, startBlock: 0n }));
    expect(await balanceOf(database.db, 'user_available', a.userId, 'ETH')).toBe(parseEther('1.25'));
    expect(await database.db.selectFrom('deposits').select('id').where('tx_hash', '=', hash).execute()).toHaveLength(3);
  }, 120_000);
});
