import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { verifyChain } from './chain.ts';
import { runAuditCommand } from './ops-commands.ts';
import { appendAudit } from './repository.ts';

/**
 * Issue 32 (ASVS 16.4.2): audit_events is a hash chain. Concurrent appends keep one chain; a row
 * changed or deleted by a superuser (the append-only trigger off) is named by `audit verify`.
 */
const database = useTestDatabase();
const at = new Date('2030-01-02T03:04:05.000Z');

async function verifyLines(): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runAuditCommand(database.db, ['verify'], (line) => lines.push(line));
  return { code, lines };
}

/** As a superuser: the append-only trigger switched off for this transaction only. */
async function asSuperuser(statement: ReturnType<typeof sql>) {
  await database.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });
}

describe('the audit hash chain', () => {
  it('concurrent appends from 30 transactions keep one unbroken chain', async () => {
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        database.db.transaction().execute(async (trx) => {
          await appendAudit(trx, { event: 'login_failed', at, ip: `10.0.0.${i}`, details: { n: i, text: 'ü "q"' } });
          await appendAudit(trx, { event: 'logout', at, details: { n: i } });
        }),
      ),
    );
    const state = await verifyChain(database.db, 7);
    expect(state).toMatchObject({ ok: true, brokenAt: null });
    expect(state.rows).toBeGreaterThanOrEqual(60);
    expect((await verifyLines()).code).toBe(0);
  });

  it('the application cannot update or delete a row', async () => {
    await expect(sql`update audit_events set ip = '1.2.3.4'`.execute(database.db)).rejects.toThrow(/append-only/);
    await expect(sql`delete from audit_events`.execute(database.db)).rejects.toThrow(/append-only/);
  });

  it('a row edited by a superuser is named as the first broken link; restored, the chain holds again', async () => {
    const { rows } = await sql<{ id: string; chain_seq: string; details: unknown }>`
      select id, chain_seq, details from audit_events order by chain_seq offset 10 limit 1`.execute(database.db);
    const victim = rows[0];
    if (!victim) throw new Error('no rows');
    await asSuperuser(sql`update audit_events set details = '{"n": 999}' where id = ${victim.id}`);
    const broken = await verifyLines();
    expect(broken.code).toBe(1);
    expect(broken.lines.at(-1)).toBe(
      `audit chain: BROKEN at link #${victim.chain_seq} (audit_events id ${victim.id}): hash_mismatch`,
    );
    await asSuperuser(
      sql`update audit_events set details = ${JSON.stringify(victim.details)}::jsonb where id = ${victim.id}`,
    );
    expect((await verifyLines()).code).toBe(0);
  });

  it('a row slipped in with the triggers off is named as unlinked', async () => {
    const { rows } = await sql<{ id: string }>`select nextval('audit_events_id_seq')::text as id`.execute(database.db);
    const id = rows[0]?.id as string;
    await asSuperuser(
      sql`insert into audit_events (id, occurred_at, event, details) values (${id}, now(), 'logout', '{}')`,
    );
    expect((await verifyChain(database.db)).brokenAt).toMatchObject({ id, reason: 'unlinked_row' });
    await asSuperuser(sql`delete from audit_events where id = ${id}`);
    expect((await verifyChain(database.db)).ok).toBe(true);
  });

  it('links rows at commit: inside the transaction they are not linked yet', async () => {
    await database.db.transaction().execute(async (trx) => {
      await appendAudit(trx, { event: 'logout', at, details: { inside: true } });
      const { rows } = await sql<{ hash: Buffer | null }>`
        select hash from audit_events where details->>'inside' = 'true'`.execute(trx);
      expect(rows).toEqual([{ hash: null }]);
    });
    const { rows } = await sql<{ hash: Buffer | null }>`
      select hash from audit_events where details->>'inside' = 'true'`.execute(database.db);
    expect(rows[0]?.hash).toHaveLength(32);
    expect((await verifyChain(database.db)).ok).toBe(true);
  });

  it('a deleted row, or a rewritten hash, is caught at the next link', async () => {
    const { rows } = await sql<{ id: string; chain_seq: string }>`
      select id, chain_seq from audit_events order by chain_seq offset 20 limit 2`.execute(database.db);
    const [gone, next] = rows;
    if (!gone || !next) throw new Error('no rows');
    // Rewriting the row's own hash to match its new content does not help: the next link names the old one.
    await asSuperuser(sql`update audit_events set details = '{}' where id = ${gone.id}`);
    await asSuperuser(sql`update audit_events e set hash = sha256(e.prev_hash || audit_event_content(e))
      where e.id = ${gone.id}`);
    const rewritten = await verifyChain(database.db);
    expect(rewritten.brokenAt).toEqual({ chainSeq: next.chain_seq, id: next.id, reason: 'prev_hash_mismatch' });
    await asSuperuser(sql`delete from audit_events where id = ${gone.id}`);
    expect((await verifyChain(database.db)).brokenAt).toEqual({
      chainSeq: gone.chain_seq,
      id: null,
      reason: 'missing_row',
    });
  });

  it('exports the log as JSON lines ending with the chain head, never over an existing file', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'audit-export-'));
    const file = path.join(dir, 'audit.jsonl');
    const lines: string[] = [];
    expect(await runAuditCommand(database.db, ['export', file], (l) => lines.push(l))).toBe(0);
    const written = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const head = written.at(-1);
    const state = await verifyChain(database.db);
    expect(head).toEqual({ head: state.head });
    expect(written.at(-2)).toMatchObject({ chain_seq: state.head.seq, hash: state.head.hash });
    await expect(runAuditCommand(database.db, ['export', file], () => {})).rejects.toThrow(/EEXIST/);
  });
});
