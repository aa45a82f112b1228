import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { tsChildArgs } from '../../lib/ts-child.ts';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { formatReport, reconcile } from './reconcile.ts';
import { createLedgerService } from './service.ts';

const execFileAsync = promisify(execFile);
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Runs `scripts/ops.ts <args>` against the test database; resolves with its exit code and output. */
async function ops(databaseUrl: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync(process.execPath, tsChildArgs('scripts/ops.ts', args), {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: databaseUrl },
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('ledger reconciliation', () => {
  const database = useTestDatabase();

  beforeAll(async () => {
    const ledger = createLedgerService({ db: database.db, now: () => new Date('2030-01-01T00:00:00Z') });
    const [a, b] = [await createUser(database.db), await createUser(database.db)];
    await ledger.deposit({ idempotencyKey: 'd-a', userId: a, asset: 'USDT', amountMinor: 9_000_000n });
    await ledger.send({ idempotencyKey: 's-ab', fromUserId: a, toUserId: b, asset: 'USDT', amountMinor: 2_000_000n });
    await ledger.lock({ idempotencyKey: 'l-b', userId: b, asset: 'USDT', amountMinor: 1_500_000n });
    await ledger.settleWithdrawal({
      idempotencyKey: 'w-b',
      userId: b,
      asset: 'USDT',
      amountMinor: 1_500_000n,
      feeMinor: 500_000n,
    });
  });

  it('reconciles a sound ledger, and `npm run ops -- reconcile` exits 0', async () => {
    const report = await reconcile(database.db);
    expect(report).toMatchObject({ ok: true, transfers: 4, entries: 9, balanceMismatchCount: 0, brokenChains: 0 });
    expect(report.assetTotals).toEqual([{ asset: 'USDT', totalMinor: '0' }]);
    const run = await ops(database.url, 'reconcile');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('RECONCILED');
    expect(run.stdout).toContain('4 transfers, 9 entries');
  }, 30_000);

  it('refuses an unknown command with exit code 2', async () => {
    const run = await ops(database.url, 'frobnicate');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/usage: npm run ops -- <reconcile\b/);
  }, 30_000);

  it('finds a balance corrupted behind its back, and the command exits non-zero', async () => {
    const { rows } = await sql<{ id: string }>`
      update ledger_accounts set balance = balance + 1
      where id = (select min(id) from ledger_accounts where kind = 'user_available') returning id::text`.execute(
      database.db,
    );
    const corrupted = rows[0]?.id;
    const report = await reconcile(database.db);
    expect(report.ok).toBe(false);
    expect(report.balanceMismatchCount).toBe(1);
    expect(report.balanceMismatches[0]?.accountId).toBe(corrupted);
    expect(report.assetTotals).toEqual([{ asset: 'USDT', totalMinor: '1' }]);
    expect(formatReport(report).at(-1)).toBe('MISMATCH');
    const run = await ops(database.url, 'reconcile');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`account ${corrupted}: balance`);
    expect(run.stdout).toContain('MISMATCH');
  }, 30_000);
});
