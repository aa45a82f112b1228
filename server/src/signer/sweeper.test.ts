import { type Address, erc20Abi, parseEther } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import artifact from '../../contracts/test-token.json' with { type: 'json' };
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import { createEvmWatcher } from '../modules/chain/evm-watcher.ts';
import { DEV_ACCOUNT, type devClient, type LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { custodyCheck, custodyLines } from '../modules/custody/custody-check.ts';
import { runCustodyCommand } from '../modules/custody/refill.ts';
import { depositAddressFor } from '../modules/deposits/addresses.ts';
import { fence, LeaseLostError, release, tryAcquire } from '../modules/leases/lease.ts';
import { creditDeposit } from '../modules/ledger/operations.ts';
import { reconcile } from '../modules/ledger/reconcile.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { createUser } from '../test/app.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner, type SignerOptions } from './signer.ts';
import { approvedWithdrawal, sweepKeys } from './test-helpers.ts';

const { hot, xpub } = sweepKeys;
const USDT = 10n ** 6n;

/** Deposit sweeps into the hot wallet and the custody book, on a real anvil with the real watcher. */
describe('deposit sweeps', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let dataDir: string;

  beforeAll(async () => {
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-sweeps-', hot.address));
  }, 120_000);
  afterAll(() => chains?.stop());

  /** A fresh signer each time: what a restarted signer process would be. */
  const signer = (extra: Partial<SignerOptions> = {}) =>
    createSigner({
      db: database.db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      depositAccount: sweepKeys.depositAccount,
      sweepIntervalMs: 0,
      ...extra,
    });
  const usdtOf = (owner: Address) =>
    client.readContract({
      address: runtime.tokens.USDT as Address,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [owner],
    });
  const sweeps = () => database.db.selectFrom('sweep_transactions').selectAll().orderBy('id').execute();

  async function caughtUp(w: ReturnType<typeof createEvmWatcher>) {
    for (let i = 0; i < 60; i++) if (!(await w.tick()).behind) return;
    throw new Error('watcher did not catch up');
  }

  async function depositBoth(address: Address) {
    const eth = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: address,
      value: parseEther('1'),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash: eth });
    const usdt = await client.wallet.writeContract({
      address: runtime.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [address, 500n * USDT],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash: usdt });
    await client.mine({ blocks: 8 });
  }

  it('sweeps credited ETH and USDT (gas topped up first) exactly once, never credits the top-up, and the hot wallet matches its custody account', async () => {
    const db = database.db;
    const userId = await createUser(db);
    const address = (await depositAddressFor(db, userId, 'ethereum', xpub)) as Address;
    const watcher = createEvmWatcher({ db, runtime, startBlock: 0n });
    await caughtUp(watcher);
    await depositBoth(address);
    await caughtUp(watcher);
    expect(await balanceOf(db, 'user_available', userId, 'USDT')).toBe(500n * USDT);
    const hotUsdtBefore = await usdtOf(hot.address);

    // Blocks only when asked: each round, two signers (a restart) tick before the next block.
    await client.setAutomine(false);
    for (let round = 0; round < 10; round++) {
      await signer().tick();
      const recorded = (await sweeps()).length;
      await signer().tick(); // a second signer finds the same row open: it rebroadcasts, records nothing
      expect((await sweeps()).length).toBe(recorded);
      await client.mine({ blocks: 1 });
      await caughtUp(watcher);
      const rows = await sweeps();
      if (rows.some((r) => r.kind === 'sweep' && r.coin === 'USDT' && r.state === 'mined')) break;
    }
    await client.setAutomine(true);
    await signer().tick(); // settles what the last block mined; plans nothing more

    const rows = await sweeps();
    expect(rows.map((r) => [r.kind, r.coin, r.state])).toEqual([
      ['sweep', 'ETH', 'mined'],
      ['gas_topup', 'ETH', 'mined'],
      ['sweep', 'USDT', 'mined'],
    ]);
    expect(rows.every((r) => r.custody_transfer_id !== null)).toBe(true);
    // On chain: the USDT went to the hot wallet; the address keeps only what is left of the top-up.
    expect(await usdtOf(address)).toBe(0n);
    expect(await usdtOf(hot.address)).toBe(hotUsdtBefore + 500n * USDT);
    const leftover = await client.getBalance({ address });
    expect(leftover).toBeGreaterThan(0n);
    expect(leftover).toBeLessThan(BigInt(rows[1]?.chain_amount ?? '0'));
    // The top-up reached the user's deposit address but is not the user's deposit.
    const deposits = await db.selectFrom('deposits').select(['coin', 'state']).where('user_id', '=', userId).execute();
    expect(deposits).toHaveLength(2);
    expect(await balanceOf(db, 'user_available', userId, 'ETH')).toBe(parseEther('1'));
    // Nothing is left to sweep: another round records nothing.
    expect((await signer().tick()).sweeps).toBe(0);

    // A withdrawal paid from the hot wallet leaves it in the book with its gas.
    await payWithdrawal();

    const reports = await custodyCheck(db, dataDir, {});
    const ethereum = reports.find((r) => r.network === 'ethereum');
    expect(ethereum?.skipped).toBeUndefined();
    expect(ethereum?.hot.map((h) => h.asset)).toEqual(expect.arrayContaining(['ETH@ethereum', 'USDT@ethereum']));
    for (const h of ethereum?.hot ?? []) expect([h.asset, h.chain]).toEqual([h.asset, h.book]);
    if (process.env.SWEEP_TEST_PRINT) console.log(custodyLines(reports).lines.join('\n'));
    expect(ethereum?.deposits.find((d) => d.asset === 'ETH@ethereum')).toMatchObject({
      chain: leftover,
      book: leftover,
    });
    expect(ethereum?.deposits.find((d) => d.asset === 'USDT@ethereum')).toMatchObject({ chain: 0n, book: 0n });
    expect(custodyLines(reports).ok).toBe(true);
    expect((await reconcile(db)).ok).toBe(true);
  }, 120_000);

  it('books into custody the deposits credited before the custody book existed, once', async () => {
    const db = database.db;
    const userId = await createUser(db);
    const address = await depositAddressFor(db, userId, 'ethereum', xpub);
    const at = new Date();
    const amount = 7n * 10n ** 18n;
    const txHash = `0x${'ab'.repeat(32)}`;
    // As a deposit credited before migration 0037 looks: successful, credited, no custody posting.
    const id = await db.transaction().execute(async (trx) => {
      const credit = await creditDeposit(
        trx,
        { idempotencyKey: `deposit:ethereum:${txHash}:0`, userId, asset: 'TUSD', amountMinor: amount },
        at,
      );
      const row = await trx
        .insertInto('deposits')
        .values({
          user_id: userId,
          network: 'ethereum',
          coin: 'TUSD',
          tx_hash: txHash,
          output_index: 0,
          from_address: null,
          to_address: address,
          chain_amount: amount.toString(),
          amount_minor: amount.toString(),
          block_number: '1',
          block_hash: `0x${'cd'.repeat(32)}`,
          required_confirmations: 6,
          state: 'successful',
          credited_transfer_id: credit.transfer.id,
          created_at: at,
          updated_at: at,
          completed_at: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });
    const booked = () => balanceOf(db, 'system_deposit_addresses', null, 'TUSD@ethereum');
    const before = await booked();
    await signer().tick();
    await signer().tick();
    expect(await booked()).toBe(before + amount);
    const row = await db
      .selectFrom('deposits')
      .select('custody_transfer_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.custody_transfer_id).not.toBeNull();
  });

  it('books a refill of the hot wallet from outside with ops custody refill, once; refuses our own transactions', async () => {
    const db = database.db;
    await signer().tick(); // the book is open (the first test opened it; alone, this tick does)
    const eth = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: hot.address,
      value: parseEther('5'),
      chain: null,
    });
    const usdt = await client.wallet.writeContract({
      address: runtime.tokens.USDT as Address,
      abi: artifact.abi,
      functionName: 'mint',
      args: [hot.address, 100n * USDT],
      account: DEV_ACCOUNT,
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash: usdt });
    const hotReport = async () =>
      (await custodyCheck(db, dataDir, {})).find((r) => r.network === 'ethereum')?.hot ?? [];
    expect((await hotReport()).find((h) => h.asset === 'ETH@ethereum')?.chain).not.toBe(
      (await hotReport()).find((h) => h.asset === 'ETH@ethereum')?.book,
    );
    const lines: string[] = [];
    const run = (...args: string[]) =>
      runCustodyCommand(db, ['refill', ...args], (l) => lines.push(l), { dataDir, env: {} });
    expect(await run('ethereum', eth)).toBe(0);
    expect(await run('ethereum', usdt)).toBe(0);
    expect(await run('ethereum', usdt)).toBe(0);
    expect(lines).toEqual([
      `booked: ${parseEther('5')} ETH@ethereum into the hot wallet's custody account`,
      `booked: ${100n * USDT} USDT@ethereum into the hot wallet's custody account`,
      `already booked: ${100n * USDT} USDT@ethereum into the hot wallet's custody account`,
    ]);
    for (const h of await hotReport()) expect([h.asset, h.chain]).toEqual([h.asset, h.book]);
    // Our own sweep is booked when mined, never as a refill; a bad hash or network is a usage error.
    const own = await db.selectFrom('sweep_transactions').select('tx_hash').executeTakeFirst();
    if (own) expect(await run('ethereum', own.tx_hash)).toBe(1);
    expect(await run('tron', eth)).toBe(2);
    expect(await run('ethereum', '0x12')).toBe(2);
  });

  it('a signer whose lease lapsed records no sweep, and one that lost it after recording sends nothing; the leader sends those bytes once', async () => {
    const db = database.db;
    const userId = await createUser(db);
    const address = (await depositAddressFor(db, userId, 'ethereum', xpub)) as Address;
    const watcher = createEvmWatcher({ db, runtime, startBlock: await client.getBlockNumber() });
    const hash = await client.wallet.sendTransaction({
      account: DEV_ACCOUNT,
      to: address,
      value: parseEther('2'),
      chain: null,
    });
    await client.waitForTransactionReceipt({ hash });
    await client.mine({ blocks: 8 });
    await caughtUp(watcher);
    expect(await balanceOf(db, 'user_available', userId, 'ETH')).toBe(parseEther('2'));

    const old = await tryAcquire(db, 'signer', 'instance-a', 60_000);
    if (old === null) throw new Error('no lease');
    await release(db, 'signer', 'instance-a');
    const current = await tryAcquire(db, 'signer', 'instance-b', 60_000);
    if (current === null) throw new Error('no lease');
    const rowsOf = () =>
      db.selectFrom('sweep_transactions').selectAll().where('deposit_address', '=', address).execute();
    await expect(signer({ fence: (trx) => fence(trx, 'signer', old) }).tick()).rejects.toBeInstanceOf(LeaseLostError);
    expect(await rowsOf()).toHaveLength(0);

    // The lease lapses between recording and broadcasting: the sweep is recorded, never sent by this signer.
    let fences = 0;
    const losing = signer({
      fence: async (trx) => {
        fences += 1;
        if (fences > 1) throw new LeaseLostError('signer');
        await fence(trx, 'signer', current);
      },
    });
    await expect(losing.tick()).rejects.toBeInstanceOf(LeaseLostError);
    const [recorded] = await rowsOf();
    expect(recorded?.state).toBe('signed');
    await expect(client.getTransaction({ hash: recorded?.tx_hash as `0x${string}` })).rejects.toThrow();
    const leader = signer({ fence: (trx) => fence(trx, 'signer', current) });
    await leader.tick(); // broadcasts the recorded bytes (automine: mined at once)
    await leader.tick(); // settles them in the custody book
    const rows = await rowsOf();
    expect(rows.map((r) => [r.kind, r.state, r.tx_hash])).toEqual([['sweep', 'mined', recorded?.tx_hash]]);
    expect(await client.getBalance({ address })).toBe(0n);
    expect(custodyLines(await custodyCheck(db, dataDir, {})).ok).toBe(true);
    await release(db, 'signer', 'instance-b');
  });

  async function payWithdrawal() {
    const db = database.db;
    const { id } = await approvedWithdrawal(db, {
      coin: 'ETH',
      network: 'ethereum',
      to: '0x00000000000000000000000000000000000d0d0d',
      amountMinor: parseEther('0.5'),
      feeMinor: 2_000_000_000_000_000n,
      idempotencyKey: 'sweep-test',
    });
    const s = signer();
    for (let i = 0; i < 5; i++) {
      await s.tick();
      const row = await db.selectFrom('withdrawals').select('state').where('id', '=', id).executeTakeFirstOrThrow();
      if (row.state === 'transfer_successful') return;
    }
    throw new Error('the withdrawal was not paid');
  }
});
