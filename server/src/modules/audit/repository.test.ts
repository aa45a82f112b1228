import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { appendAudit, listAudit } from './repository.ts';

const database = useTestDatabase();

describe('audit log', () => {
  it('appends events and reads them back in order', async () => {
    const at = new Date('2030-01-01T00:00:00Z');
    await appendAudit(database.db, { event: 'login_failed', at, ip: '10.0.0.1', details: { identifier: 'bob' } });
    await appendAudit(database.db, { event: 'logout', at });
    const rows = await listAudit(database.db);
    expect(rows.map((r) => r.event)).toEqual(['login_failed', 'logout']);
    expect(rows[0]).toMatchObject({ ip: '10.0.0.1', details: { identifier: 'bob' }, occurredAt: at });
  });

  it('refuses UPDATE, DELETE and TRUNCATE', async () => {
    await appendAudit(database.db, { event: 'logout', at: new Date() });
    await expect(database.db.updateTable('audit_events').set({ event: 'tampered' }).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(database.db.deleteFrom('audit_events').execute()).rejects.toThrow(/append-only/);
    await expect(sql`truncate audit_events`.execute(database.db)).rejects.toThrow(/append-only/);
    expect((await listAudit(database.db)).every((r) => r.event !== 'tampered')).toBe(true);
  });
});
