import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/database.ts';
import { type ContentRow, canonicalContent, contentColumns } from './canonical.ts';
import { appendAudit } from './repository.ts';

/** The content computed in Node (canonical.ts) is byte for byte the database's audit_event_content. */
const database = useTestDatabase();

describe('canonical audit content', () => {
  it('matches audit_event_content for awkward rows (unicode, control characters, numbers, nesting)', async () => {
    const awkward = [
      { s: 'ü "q" \\ \n\t\r\b\f \u0001 \u001f \u007f / \u2028 😀', n: 1.5, big: 12345678901234567000 },
      { nested: { b: [1, 'two', null, true], a: { zz: 0, y: -0.25 } }, longer_key: 'x', k: '' },
      {},
    ];
    for (const [i, details] of awkward.entries())
      await appendAudit(database.appDb, {
        // Not one of the app's event names: the content must not care (and é is not ASCII).
        event: `e\u00e9${i}` as 'logout',
        at: new Date(Date.UTC(2030, 0, 2, 3, 4, 5, i)),
        ip: i === 0 ? null : '2001:db8::1',
        userId: i === 1 ? '00000000-0000-4000-8000-000000000001' : null,
        details,
      });
    await sql`insert into audit_events (occurred_at, event, details)
      values ('2030-01-02T03:04:05.123456Z', 'micro', '{"n": 1.50, "e": 1e3}'::jsonb)`.execute(database.db);
    const { rows } = await sql<ContentRow & { db_content: Buffer }>`
      select ${contentColumns}, audit_event_content(e) as db_content
      from audit_events e where chain_seq is not null order by chain_seq`.execute(database.db);
    expect(rows.length).toBe(4);
    for (const row of rows) expect(canonicalContent(row).toString('utf8')).toBe(row.db_content.toString('utf8'));
  });
});
