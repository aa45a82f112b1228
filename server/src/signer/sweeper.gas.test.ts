import { type Address, type Hex, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../contracts/test-token.json' with { type: 'json' };
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import { createEvmWatcher } from '../modules/chain/evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { custodyCheck, custodyLines } from '../modules/custody/custody-check.ts';
import { depositAddressFor } from '../modules/deposits/addresses.ts';
import { reconcile } from '../modules/ledger/reconcile.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { createUser } from '../test/app.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner } from './signer.ts';
import { sweepKeys } from './test-helpers.ts';

const { hot, xpub } = sweepKeys;
const USDT = 10n ** 6n;

/**
 * Token-sweep gas and native coins no one credited (issue 36, item 5), on anvil with the real watcher:
 * the gas decision uses the address's booked native coins, and one row the book refuses does not stop
 * the other rows from settling.
 */
describe('sweep gas from booked coins only', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let dataDir: string;
  const logged: { msg: string; details?: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-sweep-gas-', hot.address));
  }, 120_000);
  afterAll(() => chains?.stop());

  const signer = () =>
    createSigner({
      db: database.db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      depositAccount: sweepKeys.depositAccount,
      sweepIntervalMs: 0,
      log: (msg, details) => logged.push({ msg, ...(details ? { details } : {}) }),
    });

  it('an address with credited USDT and a little uncredited ETH gets a gas top-up first; every row settles; books balance', async () => {
    const db = database.db;
    const userId = await createUser(db);
    const address = (await depositAddressFor(db, userId, 'ethereum', xpub)) as Address;
    const watcher = createEvmWatcher({ db, runtime, startBlock: await client.getBlockNumber() });
    // Below the 0.001 ETH minimum: on chain, never credited, so not in the custody book.
    const dust = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: address,
      value: parseEther('0.0009'),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash: dust });
    const mint = await client.wallet.writeContract({
      address: runtime.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [address, 300n * USDT],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash: mint });
    await client.mine({ blocks: 8 });
    for (let i = 0; i < 60; i++) if (!(await watcher.tick()).behind) break;
    expect(await balanceOf(db, 'user_available', userId, 'USDT')).toBe(300n * USDT);
    expect(await balanceOf(db, 'user_available', userId, 'ETH')).toBe(0n);
    // The on-chain dust alone would pay a token sweep's gas at this price (what the old plan looked at).
    expect(parseEther('0.0009')).toBeGreaterThan(100_000n * (await client.getGasPrice()));

    // A row the book refuses (it claims a sweep of coins the deposit addresses never held), mined by
    // an unrelated transaction: its settlement throws, and must not hold up the others.
    const bogus = await db
      .insertInto('sweep_transactions')
      .values({
        kind: 'sweep',
        network: 'ethereum',
        chain_id: String(runtime.chainId),
        coin: 'USDT',
        deposit_address: '0x000000000000000000000000000000000000b0b0',
        from_address: '0x000000000000000000000000000000000000b0b0',
        to_address: hot.address,
        chain_amount: (10n ** 30n).toString(),
        nonce: '0',
        gas_limit: '100000',
        gas_price_wei: '1',
        tx_hash: dust as Hex,
        raw_tx: '0x',
        state: 'signed',
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    for (let i = 0; i < 8; i++) {
      await signer().tick();
      const rows = await db
        .selectFrom('sweep_transactions')
        .selectAll()
        .where('deposit_address', '=', address)
        .execute();
      if (rows.some((r) => r.kind === 'sweep' && r.state === 'mined' && r.custody_transfer_id !== null)) break;
    }
    const rows = await db
      .selectFrom('sweep_transactions')
      .select(['kind', 'coin', 'state'])
      .where('deposit_address', '=', address)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      { kind: 'gas_topup', coin: 'ETH', state: 'mined' },
      { kind: 'sweep', coin: 'USDT', state: 'mined' },
    ]);
    expect(
      logged.some((l) => l.msg.startsWith('ALERT: sweep follow-up failed') && l.details?.sweepId === bogus.id),
    ).toBe(true);
    await db.deleteFrom('sweep_transactions').where('id', '=', bogus.id).execute();
    expect((await reconcile(db)).ok).toBe(true);
    expect(custodyLines(await custodyCheck(db, dataDir, {})).ok).toBe(true);
  }, 120_000);
});
