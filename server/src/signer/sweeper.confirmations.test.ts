import { sql } from 'kysely';
import { type Address, type Hex, parseEther, parseGwei } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import { createEvmWatcher } from '../modules/chain/evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { custodyCheck, custodyLines } from '../modules/custody/custody-check.ts';
import { sweepCandidates } from '../modules/custody/sweeps-repository.ts';
import { depositAddressFor } from '../modules/deposits/addresses.ts';
import { reconcile } from '../modules/ledger/reconcile.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { createUser } from '../test/app.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner, type SignerOptions } from './signer.ts';
import { minimumsOf } from './sweep-plan.ts';
import { sweepKeys } from './test-helpers.ts';

const { hot, xpub } = sweepKeys;
const WAIT_MS = 60_000;
const ETH_AT = 'ETH@ethereum';

/**
 * Sweep settlement (issue 36, item 7): a top-up or sweep is settled only once its receipt has the
 * network's confirmations (as withdrawals are, signer-settle.ts), so a reorg that drops the receipt and
 * mines another attempt of the nonce books that attempt's value and fee; and a sweep mined at or before
 * the custody book's opening block books no hot-wallet side (the opening balance already holds it).
 */
describe('sweeps settle on confirmed receipts (anvil, reorg by snapshot)', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let dataDir: string;
  let clock = Date.now();

  beforeAll(async () => {
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-sweep-confirm-', hot.address));
  }, 120_000);
  afterAll(() => chains?.stop());

  const signer = (extra: Partial<SignerOptions> = {}) =>
    createSigner({
      db: database.db,
      now: () => new Date(clock),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      depositAccount: sweepKeys.depositAccount,
      sweepIntervalMs: 0,
      replaceAfterMs: WAIT_MS,
      maxReplacements: 2,
      confirmations: () => 3,
      ...extra,
    });
  // The opening block is written once in production (no update in the table's type): a test moves it.
  const setOpening = (block: string) =>
    sql`update custody_openings set block_number = ${block}::numeric where network = 'ethereum'`.execute(database.db);
  const rowsOf = (address: string) =>
    database.db.selectFrom('sweep_transactions').selectAll().where('deposit_address', '=', address).execute();

  async function creditedEth(value: bigint) {
    const db = database.db;
    const userId = await createUser(db);
    const address = (await depositAddressFor(db, userId, 'ethereum', xpub)) as Address;
    const watcher = createEvmWatcher({ db, runtime, startBlock: await client.getBlockNumber() });
    const hash = await client.wallet.sendTransaction({ account: DEV_ACCOUNT, to: address, value, chain: null });
    await client.waitForTransactionReceipt({ hash });
    await client.mine({ blocks: 8 });
    for (let i = 0; i < 60 && (await watcher.tick()).behind; i++);
    expect(await balanceOf(db, 'user_available', userId, 'ETH')).toBe(value);
    return address;
  }

  it('a sweep receipt reorged away before its confirmations is not booked; the replacement mined on the new branch is, with its own value and fee', async () => {
    const db = database.db;
    await signer().tick(); // opens the book (automine on); nothing to sweep yet
    const address = await creditedEth(parseEther('2'));
    const hotBefore = await balanceOf(db, 'system_hot_wallet', null, ETH_AT);
    await client.setAutomine(false);
    try {
      expect((await signer().tick()).sweeps).toBe(1);
      const [row] = await rowsOf(address);
      if (!row) throw new Error('no sweep recorded');
      const beforeReorg = await client.snapshot();
      await client.mine({ blocks: 1 });
      expect((await client.getTransactionReceipt({ hash: row.tx_hash as Hex })).status).toBe('success');
      const early = await signer().tick();
      expect(early).toMatchObject({ sweepsSettled: 0, sweepsAwaitingConfirmations: 1, sweepsReplaced: 0 });
      expect((await rowsOf(address))[0]?.state).toBe('signed');
      expect(await balanceOf(db, 'system_hot_wallet', null, ETH_AT)).toBe(hotBefore);

      // The reorg: the sweep's block is gone and the first bytes are in no mempool; a replacement is due.
      await client.revert({ id: beforeReorg });
      await client.dropTransaction({ hash: row.tx_hash as Hex }).catch(() => undefined);
      clock += WAIT_MS;
      expect((await signer().tick()).sweepsReplaced).toBe(1);
      const [replacement] = await db.selectFrom('sweep_attempts').selectAll().where('sweep_id', '=', row.id).execute();
      if (!replacement) throw new Error('no replacement recorded');
      expect(BigInt(replacement.chain_amount)).toBeLessThan(BigInt(row.chain_amount));
      await client.mine({ blocks: 1 });
      expect((await signer().tick()).sweepsAwaitingConfirmations).toBe(1);
      await client.mine({ blocks: 2 });
      expect((await signer().tick()).sweepsSettled).toBe(1);
      const [settled] = await rowsOf(address);
      expect(settled).toMatchObject({
        state: 'mined',
        mined_tx_hash: replacement.tx_hash,
        chain_amount: replacement.chain_amount,
        fee_wei: (21_000n * BigInt(replacement.gas_price_wei)).toString(),
      });
      await expect(client.getTransactionReceipt({ hash: row.tx_hash as Hex })).rejects.toThrow();
      expect(await client.getBalance({ address })).toBe(0n);
      expect(await balanceOf(db, 'system_hot_wallet', null, ETH_AT)).toBe(hotBefore + BigInt(replacement.chain_amount));
    } finally {
      await client.setAutomine(true);
    }
    expect(custodyLines(await custodyCheck(db, dataDir, {})).ok).toBe(true);
    expect((await reconcile(db)).ok).toBe(true);
  }, 120_000);

  it('a native sweep mined at a gas price above 48 gwei leaves no phantom amount listed (issue 36, item 6, on anvil)', async () => {
    const db = database.db;
    const address = await creditedEth(parseEther('0.01'));
    await client.request({
      method: 'anvil_setNextBlockBaseFeePerGas' as never,
      params: [`0x${parseGwei('60').toString(16)}`] as never,
    });
    expect((await signer({ confirmations: () => 1 }).tick()).sweeps).toBe(1); // automine: mined at once
    expect((await signer({ confirmations: () => 1 }).tick()).sweepsSettled).toBe(1);
    const [row] = await rowsOf(address);
    expect(row?.state).toBe('mined');
    expect(BigInt(row?.gas_price_wei ?? 0)).toBeGreaterThan(parseGwei('48'));
    expect(await client.getBalance({ address })).toBe(0n);
    const listed = await sweepCandidates(db, 'ethereum', minimumsOf('ethereum'), 100);
    expect(listed.filter((c) => c.address === address)).toEqual([]);
    expect((await signer({ confirmations: () => 1 }).tick()).sweeps).toBe(0);
    expect(custodyLines(await custodyCheck(db, dataDir, {})).ok).toBe(true);
    expect((await reconcile(db)).ok).toBe(true);
  }, 120_000);

  it('a sweep mined at or before the opening block books only the deposit addresses side (world for the hot wallet)', async () => {
    const db = database.db;
    const address = await creditedEth(parseEther('1')); // the book is open (first test)
    // Last test: it leaves the hot wallet's chain balance above its book on purpose.
    await client.setAutomine(false);
    let minedBlock = 0n;
    try {
      expect((await signer().tick()).sweeps).toBe(1);
      await client.mine({ blocks: 3 });
      const [row] = await rowsOf(address);
      minedBlock = (await client.getTransactionReceipt({ hash: row?.tx_hash as Hex })).blockNumber;
    } finally {
      await client.setAutomine(true);
    }
    // As if the book had been opened at that block: its opening balance already holds the swept coins.
    const opened = await db
      .selectFrom('custody_openings')
      .select('block_number')
      .where('network', '=', 'ethereum')
      .executeTakeFirstOrThrow();
    await setOpening(minedBlock.toString());
    const hotBefore = await balanceOf(db, 'system_hot_wallet', null, ETH_AT);
    const depositsBefore = await balanceOf(db, 'system_deposit_addresses', null, ETH_AT);
    try {
      expect((await signer().tick()).sweepsSettled).toBe(1);
      expect(await balanceOf(db, 'system_hot_wallet', null, ETH_AT)).toBe(hotBefore);
      expect(await balanceOf(db, 'system_deposit_addresses', null, ETH_AT)).toBe(depositsBefore - parseEther('1'));
    } finally {
      await setOpening(opened.block_number);
    }
    expect((await reconcile(db)).ok).toBe(true);
  }, 120_000);
});
