import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { verifyChain } from './chain.ts';
import { appendAudit } from './repository.ts';

/**
 * Review 32a, finding 1: the application's own database role runs the migrations (main.ts
 * migrateToLatest on DATABASE_URL), so it OWNS audit_events and audit_chain_head. An owner needs no
 * superuser: ALTER TABLE … DISABLE TRIGGER, rewrite a row, re-seal every later link and the
 * unprotected head row, and `audit verify` says OK. Every statement below is owner-level only (no
 * session_replication_role, no superuser).
 */
const database = useTestDatabase();
const at = new Date('2030-01-02T03:04:05.000Z');

describe('review 32a: audit chain against the application role', () => {
  it('the app role owns audit_events and audit_chain_head (so grants and triggers do not bind it)', async () => {
    const { rows } = await sql<{ tablename: string; mine: boolean }>`
      select tablename, tableowner = current_user as mine from pg_tables
      where tablename in ('audit_events', 'audit_chain_head') order by tablename`.execute(database.db);
    expect(rows).toEqual([
      { tablename: 'audit_chain_head', mine: true },
      { tablename: 'audit_events', mine: true },
    ]);
  });

  it.fails('a row rewritten and re-sealed by the owner role is still caught by audit verify', async () => {
    for (let i = 0; i < 5; i++)
      await appendAudit(database.db, { event: 'operator_roles_changed', at, details: { n: i, to: ['support'] } });
    const { rows } = await sql<{ id: string; chain_seq: string }>`
      select id, chain_seq from audit_events where details->>'n' = '1'`.execute(database.db);
    const victim = rows[0];
    if (!victim) throw new Error('no row');
    await database.db.transaction().execute(async (trx) => {
      await sql`alter table audit_events disable trigger audit_events_no_update_delete`.execute(trx);
      await sql`update audit_events set details = '{"n": 1, "to": ["compliance"]}' where id = ${victim.id}`.execute(
        trx,
      );
      // Re-seal from the victim on, and move the (unprotected) head row along.
      await sql`do $$
        declare r record; h bytea;
        begin
          select prev_hash into h from audit_events where chain_seq = ${sql.lit(Number(victim.chain_seq))};
          for r in select id from audit_events where chain_seq >= ${sql.lit(Number(victim.chain_seq))} order by chain_seq loop
            update audit_events e set prev_hash = h where e.id = r.id;
            update audit_events e set hash = sha256(h || audit_event_content(e)) where e.id = r.id returning e.hash into h;
          end loop;
          update audit_chain_head set hash = h where id = 1;
        end $$`.execute(trx);
      await sql`alter table audit_events enable trigger audit_events_no_update_delete`.execute(trx);
    });
    const { rows: after } = await sql<{ details: unknown }>`
      select details from audit_events where id = ${victim.id}`.execute(database.db);
    expect(after[0]?.details).toEqual({ n: 1, to: ['compliance'] }); // history really was rewritten
    expect((await verifyChain(database.db)).ok).toBe(false); // FAILS today: verify says OK
  });

  it.fails('the app role cannot move or delete the chain head (it stops every audited action)', async () => {
    // audit_chain_head has no trigger and no revoked grant: the app role rewinds it freely.
    await expect(sql`update audit_chain_head set seq = seq - 1 where id = 1`.execute(database.db)).rejects.toThrow();
  });
});
