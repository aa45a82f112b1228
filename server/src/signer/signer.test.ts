import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Address, erc20Abi, type Hex } from 'viem';
import { mnemonicToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CoinCode } from '../modules/catalogue/catalogue.ts';
import { type EvmChainRuntime, loadChainConfig } from '../modules/chain/chain-config.ts';
import { devClient, type LocalChains, startLocalChains } from '../modules/chain/local-chains.ts';
import { fence, LeaseLostError, release, tryAcquire } from '../modules/leases/lease.ts';
import { balanceOf } from '../modules/ledger/test-helpers.ts';
import { useTestDatabase } from '../test/database.ts';
import { createSigner } from './signer.ts';
import { startSignerProcess } from './spawn.ts';
import { approvedWithdrawal } from './test-helpers.ts';

const MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const hot = mnemonicToAccount(MNEMONIC, { accountIndex: 1 });
const ETH = 10n ** 18n;

describe('signer on a real anvil', () => {
  const database = useTestDatabase();
  let chains: LocalChains;
  let runtime: EvmChainRuntime;
  let bsc: EvmChainRuntime;
  let client: ReturnType<typeof devClient>;
  let dataDir: string;
  let counter = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'cw-signer-'));
    mkdirSync(path.join(dataDir, 'keys'), { mode: 0o700 });
    writeFileSync(path.join(dataDir, 'keys', 'dev-mnemonic.txt'), `${MNEMONIC}\n`, { mode: 0o600 });
    chains = await startLocalChains({
      dataDir,
      networks: ['ethereum', 'bsc'],
      hotWallets: { ethereum: hot.address, bsc: hot.address },
    });
    const loaded = loadChainConfig(dataDir, {}).ethereum;
    if (!loaded) throw new Error('no ethereum chain');
    runtime = loaded;
    const loadedBsc = loadChainConfig(dataDir, {}).bsc;
    if (!loadedBsc) throw new Error('no bsc chain');
    bsc = loadedBsc;
    client = devClient(runtime.rpcUrl, runtime.chainId);
  }, 120_000);
  afterAll(() => chains?.stop());

  const signer = () =>
    createSigner({ db: database.db, now: () => new Date(), account: hot, chains: () => ({ ethereum: runtime, bsc }) });

  /** A user with funds and an approved withdrawal of `amount` (fee from the catalogue) to a fresh address. */
  async function approved(
    coin: CoinCode,
    amountMinor: bigint,
    feeMinor: bigint,
    network: 'ethereum' | 'bsc' = 'ethereum',
  ) {
    counter += 1;
    const to = `0x${(0xabc000 + counter).toString(16).padStart(40, '0')}` as Address;
    const { userId, id } = await approvedWithdrawal(database.db, {
      coin,
      network,
      to,
      amountMinor,
      feeMinor,
      idempotencyKey: `k-${counter}`,
    });
    return { userId, id, to };
  }

  const withdrawal = (id: string) =>
    database.db.selectFrom('withdrawals').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const signed = (id: string) =>
    database.db.selectFrom('signer_transactions').selectAll().where('withdrawal_id', '=', id).execute();
  const tokenBalance = (token: Address, owner: Address) =>
    client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

  async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  it('pays a native ETH withdrawal on chain (arrival = amount - fee), then settles the ledger', async () => {
    const fee = 2_000_000_000_000_000n;
    const w = await approved('ETH', ETH, fee);
    const s = signer();
    expect((await s.tick()).signed).toBe(1);
    expect((await withdrawal(w.id)).state).toBe('transfer_in_progress');
    expect((await s.tick()).settled).toBe(1);
    const row = await withdrawal(w.id);
    expect(row.state).toBe('transfer_successful');
    expect(await client.getBalance({ address: w.to })).toBe(ETH - fee);
    const receipt = await client.getTransactionReceipt({ hash: row.tx_hash as Hex });
    expect(receipt.status).toBe('success');
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'ETH')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', w.userId, 'ETH')).toBe(0n);
    expect(await balanceOf(database.db, 'system_fees', null, 'ETH')).toBeGreaterThanOrEqual(fee);
    // The user's system notice says what arrived and where, once.
    const notices = await database.db.selectFrom('user_notices').selectAll().where('user_id', '=', w.userId).execute();
    expect(notices.map((n) => [n.kind, n.params.amountMinor, n.params.txHash])).toEqual([
      ['withdrawal_completed', (ETH - fee).toString(), row.tx_hash],
    ]);
  });

  it('pays an ERC-20 withdrawal with the token contract, converting 6 ledger decimals to the chain decimals', async () => {
    const token = runtime.tokens.USDT as Address;
    const w = await approved('USDT', 25_000_000n, 5_000_000n);
    const s = signer();
    await s.tick();
    await s.tick();
    expect((await withdrawal(w.id)).state).toBe('transfer_successful');
    expect(await tokenBalance(token, w.to)).toBe(20_000_000n);
  });

  it('pays USDT on BSC, whose token has 18 decimals: 6 ledger decimals scaled by 10^12 on chain', async () => {
    const bscClient = devClient(bsc.rpcUrl, bsc.chainId);
    const token = bsc.tokens.USDT as Address;
    const w = await approved('USDT', 3_000_000n, 500_000n, 'bsc');
    const s = signer();
    await s.tick();
    await s.tick();
    expect((await withdrawal(w.id)).state).toBe('transfer_successful');
    const onChain = await bscClient.readContract({
      address: token,
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [w.to],
    });
    expect(onChain).toBe(2_500_000n * 10n ** 12n);
    expect((await signed(w.id))[0]?.chain_id).toBe(String(bsc.chainId));
  });

  it('a reverted transfer fails the withdrawal and returns the funds', async () => {
    // More USDT than the hot wallet holds (1,000,000): the token's transfer reverts.
    const w = await approved('USDT', 5_000_000_000_000n, 5_000_000n);
    const s = signer();
    await s.tick();
    await s.tick();
    const row = await withdrawal(w.id);
    expect(row).toMatchObject({ state: 'transfer_failed', reason: 'transaction reverted on chain' });
    expect(await balanceOf(database.db, 'user_available', w.userId, 'USDT')).toBe(5_000_000_000_000n);
    expect(await balanceOf(database.db, 'user_locked', w.userId, 'USDT')).toBe(0n);
  });

  it('refuses to start with a mnemonic whose hot wallet is not the configured one', async () => {
    const lines: string[] = [];
    const wrong = startSignerProcess({
      databaseUrl: database.url,
      dataDir,
      env: {
        ...process.env,
        SIGNER_SETTLE_CONFIRMATIONS: '1',
        HOT_WALLET_ETHEREUM: '0x000000000000000000000000000000000000dEaD',
      },
      onLine: (l) => lines.push(l),
    });
    // A bound on the wait: a signer that started anyway is stopped, and the assertion below fails.
    const timer = setTimeout(() => void wrong.stop(), 20_000);
    expect(await wrong.exited).toBe(2);
    clearTimeout(timer);
    expect(lines.join('\n')).toMatch(/is not the ethereum hot wallet/);
  }, 30_000);

  it('crash between recording and broadcasting: the restarted signer sends the recorded transaction, exactly once', async () => {
    const w = await approved('ETH', ETH / 2n, 2_000_000_000_000_000n);
    const nonceBefore = await client.getTransactionCount({ address: hot.address });
    const lines: string[] = [];
    const crashing = startSignerProcess({
      databaseUrl: database.url,
      dataDir,
      env: { ...process.env, SIGNER_SETTLE_CONFIRMATIONS: '1', SIGNER_CRASH_AFTER_RECORD: '1', SIGNER_POLL_MS: '100' },
      onLine: (l) => lines.push(l),
    });
    await crashing.exited;
    expect(crashing.child.signalCode, lines.join('\n')).toBe('SIGKILL');
    const [recorded] = await signed(w.id);
    expect(recorded?.state).toBe('signed');
    expect((await withdrawal(w.id)).state).toBe('transfer_in_progress');
    // Recorded but never broadcast: the chain has not seen it.
    expect(await client.getTransactionCount({ address: hot.address })).toBe(nonceBefore);
    expect(BigInt(recorded?.nonce ?? -1)).toBe(BigInt(nonceBefore));

    const restarted = startSignerProcess({
      databaseUrl: database.url,
      dataDir,
      env: { ...process.env, SIGNER_SETTLE_CONFIRMATIONS: '1', SIGNER_POLL_MS: '100' },
      onLine: (l) => lines.push(l),
    });
    try {
      await until('settlement', async () =>
        (await withdrawal(w.id)).state === 'transfer_successful' ? true : undefined,
      );
    } finally {
      await restarted.stop();
    }
    const rows = await signed(w.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.tx_hash).toBe(recorded?.tx_hash);
    expect(rows[0]?.state).toBe('mined');
    // Exactly one transaction from the hot wallet, with the recorded nonce and hash.
    expect(await client.getTransactionCount({ address: hot.address })).toBe(nonceBefore + 1);
    const tx = await client.getTransaction({ hash: recorded?.tx_hash as Hex });
    expect(tx.nonce).toBe(nonceBefore);
    expect(await client.getBalance({ address: w.to })).toBe(ETH / 2n - 2_000_000_000_000_000n);
  }, 60_000);

  it('a signer whose lease was taken over records nothing, and one that lost it after recording sends nothing', async () => {
    const db = database.db;
    const old = await tryAcquire(db, 'signer', 'instance-a', 60_000);
    if (old === null) throw new Error('no lease');
    await release(db, 'signer', 'instance-a');
    const current = await tryAcquire(db, 'signer', 'instance-b', 60_000);
    if (current === null) throw new Error('no lease');
    const fencedBy = (token: bigint) =>
      createSigner({
        db,
        now: () => new Date(),
        account: hot,
        chains: () => ({ ethereum: runtime, bsc }),
        fence: (trx) => fence(trx, 'signer', token),
      });

    const w = await approved('ETH', ETH / 4n, 2_000_000_000_000_000n);
    await expect(fencedBy(old).tick()).rejects.toBeInstanceOf(LeaseLostError);
    expect((await withdrawal(w.id)).state).toBe('review_approved');
    expect(await signed(w.id)).toHaveLength(0);

    // The lease lapses between recording and broadcasting: the bytes are recorded, never sent by this signer.
    let fences = 0;
    const losing = createSigner({
      db,
      now: () => new Date(),
      account: hot,
      chains: () => ({ ethereum: runtime, bsc }),
      fence: async (trx) => {
        fences += 1;
        if (fences > 1) throw new LeaseLostError('signer');
        await fence(trx, 'signer', current);
      },
    });
    await expect(losing.tick()).rejects.toBeInstanceOf(LeaseLostError);
    const [attempt] = await signed(w.id);
    expect(attempt?.state).toBe('signed');
    await expect(client.getTransaction({ hash: attempt?.tx_hash as Hex })).rejects.toThrow();
    // The leader sends those same bytes and settles once.
    const leader = fencedBy(current);
    await leader.tick();
    await until('settled', async () => ((await leader.tick()).settled > 0 ? true : undefined));
    expect((await withdrawal(w.id)).state).toBe('transfer_successful');
    expect(await signed(w.id)).toHaveLength(1);
    expect(await client.getBalance({ address: w.to })).toBe(ETH / 4n - 2_000_000_000_000_000n);
    await release(db, 'signer', 'instance-b');
  }, 60_000);
});
