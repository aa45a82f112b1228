import type { Readable } from 'node:stream';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import type { ObjectStore } from '../uploads/storage.ts';
import { appendAudit } from './repository.ts';
import { exportAgeMs, exportIfDue } from './s3-anchor.ts';

/**
 * Review s7 (issue 32, ASVS 16.4.3; migration 0093). The anchors in the bucket are what catches an
 * owner-level rewrite of the chain (review 32a, finding 1). But the schedule's own bookkeeping,
 * audit_anchors, is writable by the app role (0092's default privileges): one forged row from an SQL
 * injection (exported_at in the future, to_seq beyond the head) stops every later export, silently,
 * so a later re-seal by a DBA is never caught by an anchor. `it.fails` passes today because it works.
 */
const database = useTestDatabase();
const HOUR = 3_600_000;

function memoryStore(): ObjectStore & { keys: string[] } {
  const keys: string[] = [];
  return {
    kind: 's3',
    keys,
    async put(key) {
      keys.push(key);
    },
    async get(): Promise<Readable> {
      throw new Error('not used');
    },
  };
}

describe('review s7: audit anchors vs the app role', () => {
  it('the app role cannot forge an anchor record that stops the periodic export', async () => {
    const app = database.appDb;
    // As the API's role (an SQL injection anywhere): a forged "already exported" record is refused…
    await expect(
      sql`insert into audit_anchors (to_seq, from_seq, head_hash, object_key, exported_at)
      values (9000000000000000000, 0, decode(repeat('00', 32), 'hex'), 'audit/forged', '2999-01-01T00:00:00Z')`.execute(
        app,
      ),
    ).rejects.toThrow(/permission denied/);
    // …and so is one through the owner's function: not a link of the chain (migration 0107).
    await expect(
      sql`select audit_record_anchor(0, 9000000000000000000, decode(repeat('00', 32), 'hex'), 'audit/forged')`.execute(
        app,
      ),
    ).rejects.toThrow(/not a link of the chain/);
    await expect(sql`delete from audit_anchors`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`update audit_verify_checkpoint set seq = 0`.execute(app)).rejects.toThrow(/permission denied/);
    await expect(sql`select audit_record_checkpoint(5, decode(repeat('11', 32), 'hex'))`.execute(app)).rejects.toThrow(
      /not a link of the chain/,
    );
    await appendAudit(app, { event: 'operator_roles_changed', at: new Date(), details: { to: ['admin'] } });
    const store = memoryStore();
    const later = new Date(Date.now() + 2 * HOUR);
    const result = await exportIfDue(app, store, later, HOUR);
    expect(store.keys.length).toBeGreaterThan(0);
    expect(result?.objectKey).toBeTruthy();
    // The export was recorded with the database's time and the chain's link, and is not due again.
    expect(await exportAgeMs(app)).toBeLessThan(60_000);
    expect(await exportIfDue(app, store, later, HOUR)).toBeNull();
  });
});
