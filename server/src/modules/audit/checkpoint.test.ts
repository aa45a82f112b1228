import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { verifyFromCheckpoint } from './checkpoint.ts';
import { appendAudit } from './repository.ts';

/** Review 32a, finding 10: the console's chain state walks only the rows after the last verified link. */
const database = useTestDatabase();
const at = new Date('2030-01-02T03:04:05.000Z');
const now = new Date('2030-01-03T00:00:00.000Z');

async function checkpointSeq(): Promise<string | undefined> {
  const { rows } = await sql<{ seq: string }>`select seq from audit_verify_checkpoint`.execute(database.db);
  return rows[0]?.seq;
}

const asOwner = (statement: ReturnType<typeof sql>) =>
  database.db.transaction().execute(async (trx) => {
    await sql`set local session_replication_role = replica`.execute(trx);
    await statement.execute(trx);
  });

describe('audit verify from a checkpoint', () => {
  it('keeps a checkpoint at the head; concurrent callers queue and all agree', async () => {
    for (let i = 0; i < 6; i++) await appendAudit(database.appDb, { event: 'logout', at, details: { i } });
    expect(await verifyFromCheckpoint(database.appDb, now)).toMatchObject({ ok: true, rows: 6 });
    expect(await checkpointSeq()).toBe('6');
    for (let i = 6; i < 9; i++) await appendAudit(database.appDb, { event: 'logout', at, details: { i } });
    const states = await Promise.all(Array.from({ length: 5 }, () => verifyFromCheckpoint(database.appDb, now)));
    for (const s of states) expect(s).toMatchObject({ ok: true, rows: 9, head: { seq: '9' } });
    expect(await checkpointSeq()).toBe('9');
  });

  it('a row after the checkpoint edited is named; a link before it rewritten and re-sealed shows at the checkpoint', async () => {
    await appendAudit(database.appDb, { event: 'logout', at, details: { i: 9 } });
    await asOwner(sql`update audit_events set details = '{"i": 99}' where chain_seq = 10`);
    expect((await verifyFromCheckpoint(database.appDb, now)).brokenAt).toMatchObject({
      chainSeq: '10',
      reason: 'hash_mismatch',
    });
    expect(await checkpointSeq()).toBe('9'); // a broken state never moves it
    await asOwner(sql`update audit_events set details = '{"i": 9}' where chain_seq = 10`);
    // Now rewrite row 2 and re-seal everything after it (the owner's attack of finding 1).
    await asOwner(sql`do $$
      declare r record; h bytea;
      begin
        update audit_events set details = '{"i": 42}' where chain_seq = 2;
        select prev_hash into h from audit_events where chain_seq = 2;
        for r in select id from audit_events where chain_seq >= 2 order by chain_seq loop
          update audit_events e set prev_hash = h where e.id = r.id;
          update audit_events e set hash = sha256(h || audit_event_content(e)) where e.id = r.id returning e.hash into h;
        end loop;
        update audit_chain_head set hash = h where id = 1;
      end $$`);
    expect(await verifyFromCheckpoint(database.appDb, now)).toMatchObject({
      ok: false,
      brokenAt: { chainSeq: '9', reason: 'hash_mismatch' },
    });
  });
});
