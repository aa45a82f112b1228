import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Address, type Hex, parseTransaction } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import type { devClient, LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { useTestDatabase } from '../test/database.ts';
import { bumpFee, classifyBroadcastError, createSigner, type SignerOptions } from './signer.ts';
import { startSignerProcess } from './spawn.ts';
import { approvedWithdrawal } from './test-helpers.ts';

const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const hot = mnemonicToAccount(MNEMONIC, { accountIndex: 1 });
const ETH = 10n ** 18n;
const FEE = 2_000_000_000_000_000n;

describe('broadcast answers and fee bumps', () => {
  it('classifies node answers: the bytes are known, the nonce is used, or a real failure', () => {
    expect(classifyBroadcastError('already known')).toBe('known');
    expect(classifyBroadcastError('Details: transaction already imported')).toBe('known');
    expect(classifyBroadcastError('known transaction: 0xabc')).toBe('known');
    expect(classifyBroadcastError('Details: nonce too low')).toBe('nonce_used');
    expect(classifyBroadcastError('replacement transaction underpriced')).toBe('failed');
    expect(classifyBroadcastError('insufficient funds for gas * price + value')).toBe('failed');
  });

  it('raises a fee by at least 12.5% and at least 1 wei', () => {
    expect(bumpFee(0n)).toBe(1n);
    expect(bumpFee(1n)).toBe(2n);
    expect(bumpFee(8n)).toBe(9n);
    expect(bumpFee(1_000_000_000n)).toBe(1_125_000_000n);
    for (const fee of [7n, 9n, 1_000_000_001n, 3n * 10n ** 20n]) expect(bumpFee(fee) * 8n >= fee * 9n).toBe(true);
  });
});

describe('signer replacements of stuck transactions on a real anvil', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let dataDir: string;
  let counter = 0;

  beforeAll(async () => {
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-signer-replace-', hot.address));
    mkdirSync(path.join(dataDir, 'keys'), { mode: 0o700 });
    writeFileSync(path.join(dataDir, 'keys', 'dev-mnemonic.txt'), `${MNEMONIC}\n`, { mode: 0o600 });
  }, 120_000);
  afterAll(() => chains?.stop());
  // Every test holds transactions in the mempool itself and mines when it wants them in a block.
  beforeEach(async () => {
    await client.setAutomine(false);
  });

  const signer = (extra: Partial<SignerOptions> = {}) =>
    createSigner({
      db: database.db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      ...extra,
    });

  async function approved(amountMinor: bigint) {
    counter += 1;
    const to = `0x${(0xbee000 + counter).toString(16).padStart(40, '0')}` as Address;
    const { userId, id } = await approvedWithdrawal(database.db, {
      coin: 'ETH',
      network: 'ethereum',
      to,
      amountMinor,
      feeMinor: FEE,
      idempotencyKey: `r-${counter}`,
    });
    return { userId, id, to, amountMinor };
  }

  const withdrawal = (id: string) =>
    database.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const attempts = (id: string) =>
    database.db
      .selectFrom('signer_transactions')
      .selectAll()
      .where('withdrawal_id', '=', id)
      .orderBy('attempt')
      .execute();
  const receiptOf = (hash: string) => client.getTransactionReceipt({ hash: hash as Hex }).catch(() => undefined);
  const inPool = (hash: string) =>
    client.getTransaction({ hash: hash as Hex }).then(
      () => true,
      () => false,
    );

  /** Transactions from the hot wallet with `nonce` in blocks [from, latest] (a bound: at most 200 blocks). */
  async function minedWithNonce(fromBlock: bigint, nonce: number): Promise<Hex[]> {
    const latest = await client.getBlockNumber({ cacheTime: 0 });
    expect(latest - fromBlock).toBeLessThan(200n);
    const found: Hex[] = [];
    for (let n = fromBlock; n <= latest; n += 1n) {
      const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions)
        if (tx.from.toLowerCase() === hot.address.toLowerCase() && tx.nonce === nonce) found.push(tx.hash);
    }
    return found;
  }

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  /** Settled once: the recipient has amount - fee, the user's locked is empty, and it stays settled. */
  async function expectSettledOnce(w: Awaited<ReturnType<typeof approved>>, minedHash: string) {
    const row = await withdrawal(w.id);
    expect(row.state).toBe('transfer_successful');
    expect(row.tx_hash).toBe(minedHash);
    expect(await client.getBalance({ address: w.to })).toBe(w.amountMinor - FEE);
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'ETH')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', w.userId, 'ETH')).toBe(0n);
    const settlements = await database.db
      .selectFrom('ledger_transfers')
      .select('id')
      .where('idempotency_key', '=', `withdrawal:${w.id}:settle`)
      .execute();
    expect(settlements).toHaveLength(1);
  }

  it('a first attempt priced out by a base-fee spike is replaced (same nonce, fees +12.5% and >= the network), the replacement is mined and settles once', async () => {
    const w = await approved(ETH);
    const startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
    const s = signer({ replaceAfterMs: 0 });
    expect((await s.tick()).signed).toBe(1);
    const [first] = await attempts(w.id);
    if (!first) throw new Error('no attempt');
    expect(first).toMatchObject({ attempt: 0, state: 'signed', last_error: null, broadcast_count: 1 });
    expect(await inPool(first.tx_hash)).toBe(true);
    const firstFees = parseTransaction(first.raw_tx as Hex);

    // The base fee jumps above what the first attempt pays: the block is mined without it.
    const spikeWei = (firstFees.maxFeePerGas ?? 0n) * 10n;
    await client.setNextBlockBaseFeePerGas({ baseFeePerGas: spikeWei });
    await client.mine({ blocks: 1 });
    expect(await receiptOf(first.tx_hash)).toBeUndefined();

    const replacing = await s.tick();
    expect(replacing).toMatchObject({ replaced: 1, settled: 0 });
    const [, second] = await attempts(w.id);
    if (!second) throw new Error('no replacement recorded');
    expect(second).toMatchObject({ attempt: 1, state: 'signed', nonce: first.nonce, last_error: null });
    const secondFees = parseTransaction(second.raw_tx as Hex);
    expect(secondFees.nonce).toBe(firstFees.nonce);
    expect(secondFees.to).toBe(firstFees.to);
    expect(secondFees.value).toBe(firstFees.value);
    expect((secondFees.maxFeePerGas ?? 0n) * 8n).toBeGreaterThanOrEqual((firstFees.maxFeePerGas ?? 0n) * 9n);
    expect((secondFees.maxPriorityFeePerGas ?? 0n) * 8n).toBeGreaterThanOrEqual(
      (firstFees.maxPriorityFeePerGas ?? 0n) * 9n,
    );
    expect(secondFees.maxFeePerGas ?? 0n).toBeGreaterThan(spikeWei);
    expect(second.max_fee_per_gas).toBe(String(secondFees.maxFeePerGas));
    // While in progress the user sees the attempt most likely to be mined.
    expect((await withdrawal(w.id)).tx_hash).toBe(second.tx_hash);

    await client.mine({ blocks: 1 });
    expect((await s.tick()).settled).toBe(1);
    const rows = await attempts(w.id);
    expect(rows.map((r) => [r.attempt, r.state])).toEqual([
      [0, 'replaced'],
      [1, 'mined'],
    ]);
    expect(await receiptOf(first.tx_hash)).toBeUndefined();
    expect((await receiptOf(second.tx_hash))?.status).toBe('success');
    expect(await minedWithNonce(startBlock, Number(first.nonce))).toEqual([second.tx_hash]);
    await expectSettledOnce(w, second.tx_hash);
    // Further ticks find nothing to do: settled exactly once.
    expect(await s.tick()).toMatchObject({ settled: 0, replaced: 0, rebroadcast: 0 });
  });

  it('replaces at most maxReplacements times, each raising both fees >= 12.5%; rebroadcasting the same bytes is "already known", not an error', async () => {
    const w = await approved(ETH / 4n);
    const startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
    const s = signer({ replaceAfterMs: 0, maxReplacements: 2 });
    for (let i = 0; i < 5; i += 1) await s.tick();
    const rows = await attempts(w.id);
    expect(rows.map((r) => r.attempt)).toEqual([0, 1, 2]);
    expect(new Set(rows.map((r) => r.nonce)).size).toBe(1);
    for (let i = 1; i < rows.length; i += 1) {
      const before = parseTransaction(rows[i - 1]?.raw_tx as Hex);
      const after = parseTransaction(rows[i]?.raw_tx as Hex);
      expect((after.maxFeePerGas ?? 0n) * 8n).toBeGreaterThanOrEqual((before.maxFeePerGas ?? 0n) * 9n);
      expect((after.maxPriorityFeePerGas ?? 0n) * 8n).toBeGreaterThanOrEqual((before.maxPriorityFeePerGas ?? 0n) * 9n);
    }
    // The last attempt was broadcast several times; the node already had it each time after the first.
    const last = rows[2];
    expect(last?.broadcast_count).toBeGreaterThanOrEqual(2);
    expect(last?.last_error).toBeNull();

    await client.mine({ blocks: 1 });
    expect((await s.tick()).settled).toBe(1);
    expect((await attempts(w.id)).map((r) => r.state)).toEqual(['replaced', 'replaced', 'mined']);
    expect(await minedWithNonce(startBlock, Number(last?.nonce))).toEqual([last?.tx_hash]);
    await expectSettledOnce(w, last?.tx_hash ?? '');
  });

  it('"nonce too low" when broadcasting a replacement: the earlier attempt was mined meanwhile and settles the withdrawal', async () => {
    const w = await approved(ETH / 8n);
    const startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
    const s = signer({
      replaceAfterMs: 0,
      // Between recording the replacement and broadcasting it, the first attempt is mined.
      afterRecord: async (_id, _hash, attempt) => {
        if (attempt === 1) await client.mine({ blocks: 1 });
      },
    });
    await s.tick();
    const result = await s.tick();
    expect(result).toMatchObject({ replaced: 1, settled: 1 });
    const rows = await attempts(w.id);
    expect(rows.map((r) => [r.attempt, r.state])).toEqual([
      [0, 'mined'],
      [1, 'replaced'],
    ]);
    expect(rows[1]?.last_error).toMatch(/nonce too low/i);
    expect(await minedWithNonce(startBlock, Number(rows[0]?.nonce))).toEqual([rows[0]?.tx_hash]);
    await expectSettledOnce(w, rows[0]?.tx_hash ?? '');
  });

  /** Runs the signer process until it SIGKILLs itself right after recording the first replacement. */
  async function crashAfterReplacementRecorded(w: Awaited<ReturnType<typeof approved>>, lines: string[]) {
    const crashing = startSignerProcess({
      databaseUrl: database.url,
      dataDir,
      env: {
        ...process.env,
        SIGNER_SETTLE_CONFIRMATIONS: '1',
        SIGNER_POLL_MS: '100',
        SIGNER_REPLACE_AFTER_MS: '300',
        SIGNER_CRASH_AFTER_REPLACEMENT_RECORD: '1',
      },
      onLine: (l) => lines.push(l),
    });
    const timer = setTimeout(() => void crashing.stop(), 30_000);
    await crashing.exited;
    clearTimeout(timer);
    expect(crashing.child.signalCode, lines.join('\n')).toBe('SIGKILL');
    const rows = await attempts(w.id);
    expect(rows.map((r) => [r.attempt, r.state])).toEqual([
      [0, 'signed'],
      [1, 'signed'],
    ]);
    // Recorded, never broadcast: the mempool still holds only the first attempt.
    expect(rows[1]).toMatchObject({ broadcast_count: 0, broadcast_at: null });
    expect(await inPool(rows[0]?.tx_hash ?? '')).toBe(true);
    expect(await inPool(rows[1]?.tx_hash ?? '')).toBe(false);
    return rows;
  }

  function restart(lines: string[]) {
    return startSignerProcess({
      databaseUrl: database.url,
      dataDir,
      // No further replacement in this run: what is checked is the recorded one.
      env: {
        ...process.env,
        SIGNER_SETTLE_CONFIRMATIONS: '1',
        SIGNER_POLL_MS: '100',
        SIGNER_REPLACE_AFTER_MS: '600000',
      },
      onLine: (l) => lines.push(l),
    });
  }

  it('crash (SIGKILL) between recording a replacement and broadcasting it: the restart broadcasts the recorded replacement, which is mined; exactly one transaction for the nonce', async () => {
    const w = await approved(ETH / 16n);
    const startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
    const lines: string[] = [];
    const [first, second] = await crashAfterReplacementRecorded(w, lines);
    const restarted = restart(lines);
    try {
      await until('the replacement in the mempool', async () =>
        (await inPool(second?.tx_hash ?? '')) ? true : undefined,
      );
      await client.mine({ blocks: 1 });
      await until('settlement', async () =>
        (await withdrawal(w.id)).state === 'transfer_successful' ? true : undefined,
      );
    } finally {
      await restarted.stop();
    }
    expect((await attempts(w.id)).map((r) => r.state)).toEqual(['replaced', 'mined']);
    expect(await receiptOf(first?.tx_hash ?? '')).toBeUndefined();
    expect(await minedWithNonce(startBlock, Number(first?.nonce))).toEqual([second?.tx_hash]);
    await expectSettledOnce(w, second?.tx_hash ?? '');
  }, 60_000);

  it('crash between recording a replacement and broadcasting it, and the FIRST attempt is mined while the signer is down: the restart settles by it, exactly once', async () => {
    const w = await approved(ETH / 32n);
    const startBlock = (await client.getBlockNumber({ cacheTime: 0 })) + 1n;
    const lines: string[] = [];
    const [first, second] = await crashAfterReplacementRecorded(w, lines);
    await client.mine({ blocks: 1 });
    expect((await receiptOf(first?.tx_hash ?? ''))?.status).toBe('success');
    const restarted = restart(lines);
    try {
      await until('settlement', async () =>
        (await withdrawal(w.id)).state === 'transfer_successful' ? true : undefined,
      );
    } finally {
      await restarted.stop();
    }
    expect((await attempts(w.id)).map((r) => r.state)).toEqual(['mined', 'replaced']);
    await client.mine({ blocks: 1 });
    expect(await receiptOf(second?.tx_hash ?? '')).toBeUndefined();
    expect(await minedWithNonce(startBlock, Number(first?.nonce))).toEqual([first?.tx_hash]);
    await expectSettledOnce(w, first?.tx_hash ?? '');
  }, 60_000);
  it('the database refuses an attempt that does not follow one of its own withdrawal with its nonce, and a second included attempt per nonce', async () => {
    const [w1, w2] = [await approved(ETH / 64n), await approved(ETH / 64n)];
    const db = database.db;
    const nonce = 900_000;
    let serial = 0;
    const row = (withdrawalId: string, attempt: number, n: number) => {
      serial += 1;
      const at = new Date();
      return db
        .insertInto('signer_transactions')
        .values({
          withdrawal_id: withdrawalId,
          network: 'ethereum',
          chain_id: runtime.chainId,
          from_address: hot.address,
          nonce: n,
          attempt,
          tx_hash: `0x${serial.toString(16).padStart(64, 'f')}`,
          raw_tx: '0x00',
          state: 'signed',
          created_at: at,
          updated_at: at,
        })
        .execute();
    };
    try {
      await row(w1.id, 0, nonce);
      await expect(row(w2.id, 1, nonce)).rejects.toThrow(/does not follow/);
      await expect(row(w2.id, 0, nonce)).rejects.toThrow(/sender_nonce_attempt/);
      await expect(row(w1.id, 2, nonce)).rejects.toThrow(/does not follow/);
      await expect(row(w1.id, 1, nonce + 1)).rejects.toThrow(/does not follow/);
      await row(w1.id, 1, nonce);
      const mark = (attempt: number) =>
        db
          .updateTable('signer_transactions')
          .set({ state: 'mined' })
          .where('withdrawal_id', '=', w1.id)
          .where('attempt', '=', attempt)
          .execute();
      await mark(0);
      await expect(mark(1)).rejects.toThrow(/one_included/);
    } finally {
      // These rows have no real transaction behind them: keep them away from any later signer.
      await db.deleteFrom('signer_transactions').where('withdrawal_id', 'in', [w1.id, w2.id]).execute();
    }
  });
});
