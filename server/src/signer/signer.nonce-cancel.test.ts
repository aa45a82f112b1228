import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Address, Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvmChainRuntime } from '../modules/chain/chain-config.ts';
import type { devClient, LocalChains } from '../modules/chain/local-chains.ts';
import { startTestChain } from '../modules/chain/test-chain.ts';
import { reconcile } from '../modules/ledger/reconcile.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { runWithdrawalsCommand } from '../modules/withdrawals/ops-commands.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner, type SignerOptions } from './signer.ts';
import { approvedWithdrawal } from './test-helpers.ts';

/**
 * Issue 37, item 7: a dead nonce has a way out. The withdrawal's attempt is dropped from every mempool
 * and its replacements are refused (the hot wallet cannot pay the value); an operator asks for a cancel;
 * the signer records, then broadcasts a zero-value self-transfer at the same nonce; the withdrawal fails
 * (funds back to the user) only once that cancel is mined and confirmed. If the withdrawal's own bytes are
 * mined instead, it is paid as usual.
 */
const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const hot = mnemonicToAccount(MNEMONIC, { accountIndex: 1 });
const AMOUNT = 10n ** 17n;
const FEE = 10n ** 15n;
const GAS_ONLY_BALANCE = 10n ** 16n; // pays a self-transfer's gas, not the withdrawal's 0.099 ETH

describe('operator cancel of a dead nonce (anvil)', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let counter = 0;

  beforeAll(async () => {
    let dataDir: string;
    ({ dataDir, chains, runtime, client } = await startTestChain('cw-signer-cancel-', hot.address));
    mkdirSync(path.join(dataDir, 'keys'), { mode: 0o700 });
    await client.setAutomine(false);
    await database.db
      .insertInto('operators')
      .values({ name: 'cancel_ops', password_hash: 'x', created_at: new Date() })
      .execute();
  }, 120_000);
  afterAll(() => chains?.stop());

  const signer = (extra: Partial<SignerOptions> = {}) =>
    createSigner({
      db: database.db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime }),
      ...extra,
    });
  const withdrawal = (id: string) =>
    database.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const attempts = (id: string) =>
    database.db
      .selectFrom('signer_transactions')
      .selectAll()
      .where('withdrawal_id', '=', id)
      .orderBy('attempt')
      .execute();
  const ops = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await runWithdrawalsCommand(database.db, args, (l) => lines.push(l));
    return { code, text: lines.join('\n') };
  };
  const cancel = (id: string) => ops('cancel-nonce', id, '--operator', 'cancel_ops', '--reason', 'nonce dead');

  /** A withdrawal signed and broadcast, then dropped from the mempool, its replacements refused. */
  async function deadNonce() {
    counter += 1;
    const to = `0x${(0xca0000 + counter).toString(16).padStart(40, '0')}` as Address;
    const w = await approvedWithdrawal(database.db, {
      coin: 'ETH',
      network: 'ethereum',
      to,
      amountMinor: AMOUNT,
      feeMinor: FEE,
      idempotencyKey: `cancel-${counter}`,
    });
    await client.setBalance({ address: hot.address, value: 10n ** 21n });
    expect((await signer().tick()).signed).toBe(1);
    const [first] = await attempts(w.id);
    await client.dropTransaction({ hash: first?.tx_hash as Hex });
    await client.setBalance({ address: hot.address, value: GAS_ONLY_BALANCE });
    // A replacement is signed at once (replaceAfterMs 0) and refused, like every rebroadcast; a refused
    // attempt never starts the replacement timer, so the nonce is dead.
    for (let i = 0; i < 3; i += 1) await signer({ replaceAfterMs: 0 }).tick();
    const rows = await attempts(w.id);
    expect(rows.map((r) => r.attempt)).toEqual([0, 1]);
    for (const r of rows) expect(r.last_error).toMatch(/insufficient funds/i);
    expect((await withdrawal(w.id)).state).toBe('transfer_in_progress');
    return { ...w, to, nonce: Number(first?.nonce) };
  }

  it('a dead nonce cancelled: the cancel is recorded before its broadcast, and the withdrawal fails (funds back) only once it is mined', async () => {
    const w = await deadNonce();
    expect((await cancel(w.id)).code).toBe(0);
    expect((await cancel(w.id)).code).toBe(1); // once per withdrawal
    const recorded: string[] = [];
    const s = signer({
      afterRecord: async (id, hash) => {
        // Recorded before it is broadcast: a crash here loses nothing.
        const row = (await attempts(id)).find((r) => r.tx_hash === hash);
        expect(row).toMatchObject({ kind: 'cancel', broadcast_count: 0 });
        recorded.push(hash);
      },
    });
    await s.tick();
    const rows = await attempts(w.id);
    const cancelRow = rows[rows.length - 1];
    expect(cancelRow).toMatchObject({ kind: 'cancel', attempt: 2, nonce: String(w.nonce), last_error: null });
    expect(recorded).toEqual([cancelRow?.tx_hash]);
    const tx = await client.getTransaction({ hash: cancelRow?.tx_hash as Hex });
    expect(tx.to?.toLowerCase()).toBe(hot.address.toLowerCase());
    expect(tx.value).toBe(0n);
    expect(tx.nonce).toBe(w.nonce);
    expect(BigInt(cancelRow?.max_fee_per_gas ?? 0)).toBeGreaterThan(BigInt(rows[1]?.max_fee_per_gas ?? 0));

    // Not mined yet: nothing is failed or unlocked while signed bytes could still be mined.
    await s.tick();
    expect((await withdrawal(w.id)).state).toBe('transfer_in_progress');
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'ETH')).toBe(AMOUNT);

    // Mined, but the network wants 2 confirmations: still nothing.
    await client.mine({ blocks: 1 });
    const deep = signer({ confirmations: () => 2 });
    expect((await deep.tick()).awaitingConfirmations).toBe(1);
    expect((await withdrawal(w.id)).state).toBe('transfer_in_progress');
    await client.mine({ blocks: 1 });
    expect((await deep.tick()).failed).toBe(1);
    expect(await withdrawal(w.id)).toMatchObject({ state: 'transfer_failed' });
    expect((await attempts(w.id)).map((r) => r.state)).toEqual(['replaced', 'replaced', 'mined']);
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'ETH')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', w.userId, 'ETH')).toBe(AMOUNT);
    expect(await client.getBalance({ address: w.to })).toBe(0n);
    expect((await reconcile(database.db)).ok).toBe(true);
    expect(await deep.tick()).toMatchObject({ settled: 0, failed: 0 });
  }, 120_000);

  it("the race: the withdrawal's own bytes are mined instead of the cancel, and it is paid as usual", async () => {
    const w = await deadNonce();
    expect((await cancel(w.id)).code).toBe(0);
    const s = signer();
    await s.tick();
    const rows = await attempts(w.id);
    const cancelRow = rows[rows.length - 1];
    expect(cancelRow?.kind).toBe('cancel');
    // Another node still held attempt 0 and a miner took it: the cancel is gone from our mempool.
    await client.dropTransaction({ hash: cancelRow?.tx_hash as Hex });
    await client.setBalance({ address: hot.address, value: 10n ** 21n });
    await client.sendRawTransaction({ serializedTransaction: rows[0]?.raw_tx as Hex });
    await client.mine({ blocks: 1 });
    expect((await s.tick()).settled).toBe(1);
    expect(await withdrawal(w.id)).toMatchObject({ state: 'transfer_successful', tx_hash: rows[0]?.tx_hash });
    expect((await attempts(w.id)).map((r) => r.state)).toEqual(['mined', 'replaced', 'replaced']);
    expect(await client.getBalance({ address: w.to })).toBe(AMOUNT - FEE);
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'ETH')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', w.userId, 'ETH')).toBe(0n);
    expect((await reconcile(database.db)).ok).toBe(true);
  }, 120_000);

  it('the cancel honours the fee cap (SIGNER_MAX_FEE_PER_GAS_WEI): above it, nothing is signed (review of issue 37, LOW 6)', async () => {
    const w = await deadNonce();
    expect((await cancel(w.id)).code).toBe(0);
    const logs: string[] = [];
    const rows = await attempts(w.id);
    const capped = signer({
      maxFeePerGasCapWei: BigInt(rows[1]?.max_fee_per_gas ?? 0),
      log: (message: string) => logs.push(message),
    });
    await capped.tick();
    expect((await attempts(w.id)).map((r) => r.kind)).toEqual(rows.map((r) => r.kind));
    expect(logs.some((l) => /ALERT: nonce cancel .*fee cap/.test(l))).toBe(true);
    // The cap raised: the cancel is signed at the nonce.
    await signer().tick();
    expect((await attempts(w.id)).at(-1)).toMatchObject({ kind: 'cancel', nonce: String(w.nonce) });
  }, 120_000);

  it('refuses a cancel of a withdrawal not in transfer, without an operator or a reason', async () => {
    counter += 1;
    const w = await approvedWithdrawal(database.db, {
      coin: 'ETH',
      network: 'ethereum',
      to: '0x00000000000000000000000000000000000ca1ff',
      amountMinor: AMOUNT,
      feeMinor: FEE,
      idempotencyKey: `cancel-${counter}`,
    });
    expect((await cancel(w.id)).code).toBe(1); // approved, not signed: nothing to cancel
    expect((await ops('cancel-nonce', w.id, '--operator', 'cancel_ops')).code).toBe(2);
    expect((await ops('cancel-nonce', w.id, '--operator', 'nobody', '--reason', 'x')).code).toBe(1);
    expect(
      await database.db.selectFrom('withdrawal_nonce_cancels').selectAll().where('withdrawal_id', '=', w.id).execute(),
    ).toEqual([]);
  });
});
