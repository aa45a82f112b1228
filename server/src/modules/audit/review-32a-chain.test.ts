import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { verifyChain } from './chain.ts';
import { exportChain, runAuditCommand } from './ops-commands.ts';
import { appendAudit } from './repository.ts';

/**
 * Review 32a, findings 1 and 2. The reviewer's attack ran as the application's database role, which
 * owned the tables. Since migration 0092 the API runs as a login in cw_app_role (db/app-role.ts):
 * `database.appDb` is that role here, `database.db` the owner (superuser). The app role cannot do any
 * step of the attack; the owner still can, and then an earlier export (the S3 anchor) catches it.
 */
const database = useTestDatabase();
const at = new Date('2030-01-02T03:04:05.000Z');

/** The reviewer's re-seal: rewrite row n=1, recompute every later link and the head. */
const reseal = (chainSeq: number) => sql`do $$
  declare r record; h bytea;
  begin
    select prev_hash into h from audit_events where chain_seq = ${sql.lit(chainSeq)};
    for r in select id from audit_events where chain_seq >= ${sql.lit(chainSeq)} order by chain_seq loop
      update audit_events e set prev_hash = h where e.id = r.id;
      update audit_events e set hash = sha256(h || audit_event_content(e)) where e.id = r.id returning e.hash into h;
    end loop;
    update audit_chain_head set hash = h where id = 1;
  end $$`;

async function victimRow(): Promise<{ id: string; chain_seq: string }> {
  for (let i = 0; i < 5; i++)
    await appendAudit(database.appDb, { event: 'operator_roles_changed', at, details: { n: i, to: ['support'] } });
  const { rows } = await sql<{ id: string; chain_seq: string }>`
    select id, chain_seq from audit_events where details->>'n' = '1' order by id desc limit 1`.execute(database.db);
  if (!rows[0]) throw new Error('no row');
  return rows[0];
}

describe('review 32a: audit chain against the application role', () => {
  it('the app role owns neither audit table and is no superuser (so grants and triggers bind it)', async () => {
    const { rows } = await sql<{ tablename: string; mine: boolean }>`
      select tablename, tableowner = current_user as mine from pg_tables
      where tablename in ('audit_events', 'audit_chain_head') order by tablename`.execute(database.appDb);
    expect(rows).toEqual([
      { tablename: 'audit_chain_head', mine: false },
      { tablename: 'audit_events', mine: false },
    ]);
    const { rows: me } = await sql<{ su: boolean }>`
      select rolsuper as su from pg_roles where rolname = current_user`.execute(database.appDb);
    expect(me[0]?.su).toBe(false);
  });

  it('a row rewritten and re-sealed by the owner role is still caught by audit verify', async () => {
    const victim = await victimRow();
    const app = database.appDb;
    // As the app role, every step of the attack is refused.
    await expect(
      sql`alter table audit_events disable trigger audit_events_no_update_delete`.execute(app),
    ).rejects.toThrow(/owner/);
    await expect(sql`update audit_events set details = '{}' where id = ${victim.id}`.execute(app)).rejects.toThrow(
      /permission denied/,
    );
    await expect(
      sql`create or replace function audit_event_content(e audit_events) returns bytea language sql as $$ select '\\x00'::bytea $$`.execute(
        app,
      ),
    ).rejects.toThrow(/must be owner|permission denied/);
    await expect(reseal(Number(victim.chain_seq)).execute(app)).rejects.toThrow(/permission denied/);
    // The owner (or a superuser) can: an export taken before is what catches it.
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-audit-against-'));
    const before = path.join(dir, 'before.jsonl');
    await exportChain(database.appDb, before);
    await database.db.transaction().execute(async (trx) => {
      await sql`alter table audit_events disable trigger audit_events_no_update_delete`.execute(trx);
      await sql`alter table audit_chain_head disable trigger audit_chain_head_guard`.execute(trx);
      await sql`update audit_events set details = '{"n": 1, "to": ["compliance"]}' where id = ${victim.id}`.execute(
        trx,
      );
      await reseal(Number(victim.chain_seq)).execute(trx);
      await sql`alter table audit_events enable trigger audit_events_no_update_delete`.execute(trx);
      await sql`alter table audit_chain_head enable trigger audit_chain_head_guard`.execute(trx);
    });
    expect((await verifyChain(database.db)).ok).toBe(true); // the chain alone cannot tell (re-sealed)
    const lines: string[] = [];
    const code = await runAuditCommand(database.db, ['verify', '--against', before], (l) => lines.push(l));
    expect(code).toBe(1);
    expect(lines.join('\n')).toMatch(/DIFFERS: row #\d+: its hashes changed/);
  });

  it('an owner who replaces the database content function cannot re-seal past verify (content computed in Node)', async () => {
    await appendAudit(database.appDb, { event: 'logout', at, details: { k: 1 } });
    await database.db
      .transaction()
      .execute(async (trx) => {
        // The faked function ignores `details`, so a rewrite "keeps" the old hash under it.
        await sql`create or replace function audit_event_content(e audit_events) returns bytea language sql stable as $$
        select convert_to(jsonb_build_array(e.chain_seq, e.id, e.event)::text, 'UTF8') $$`.execute(trx);
        await sql`alter table audit_events disable trigger audit_events_no_update_delete`.execute(trx);
        await sql`alter table audit_chain_head disable trigger audit_chain_head_guard`.execute(trx);
        await reseal(1).execute(trx);
        await sql`alter table audit_events enable trigger audit_events_no_update_delete`.execute(trx);
        await sql`alter table audit_chain_head enable trigger audit_chain_head_guard`.execute(trx);
        // Its own verify would now agree with itself; ours does not.
        expect((await verifyChain(trx)).brokenAt).toMatchObject({ chainSeq: '1', reason: 'hash_mismatch' });
        throw new Error('rollback');
      })
      .catch((err: Error) => {
        if (err.message !== 'rollback') throw err;
      });
  });

  it('the app role cannot move or delete the chain head (it stops every audited action)', async () => {
    const app = database.appDb;
    await expect(sql`update audit_chain_head set seq = seq - 1 where id = 1`.execute(app)).rejects.toThrow(
      /permission denied/,
    );
    await expect(sql`delete from audit_chain_head`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`truncate audit_chain_head`.execute(app)).rejects.toThrow(/permission denied/);
    // Even the owner cannot, short of switching the guard off (a superuser-level, deliberate act).
    await expect(sql`update audit_chain_head set seq = seq - 1 where id = 1`.execute(database.db)).rejects.toThrow(
      /moves only with the chain/,
    );
    await expect(sql`delete from audit_chain_head`.execute(database.db)).rejects.toThrow(/moves only with the chain/);
    // The chain itself still moves it, from the app role's own inserts, concurrently.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) => appendAudit(app, { event: 'logout', at, details: { concurrent: i } })),
    );
    expect(await verifyChain(app)).toMatchObject({ ok: true, brokenAt: null });
  });
});
