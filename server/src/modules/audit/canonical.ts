import { sql } from 'kysely';

/**
 * The canonical content of an audit row, computed HERE rather than by the database's
 * audit_event_content() (review 32a, finding 1): whoever owns the schema could `create or replace`
 * that function and re-seal a rewritten row with it. This reproduces its output byte for byte (the
 * text of jsonb_build_array(chain_seq, id, occurred_at as µs UTC, event, user_id, ip, details)): the
 * numbers and strings are formatted here, and `details` is jsonb's own text output (a built-in that
 * only a superuser could replace), which is already canonical (key order and spacing fixed).
 * canonical.test.ts holds the two side by side for awkward rows.
 */
export interface ContentRow {
  chain_seq: string;
  id: string;
  at: string;
  event: string;
  user_id: string | null;
  ip: string | null;
  details_text: string;
}

/** The columns ContentRow needs, for a select on `audit_events e`. */
export const contentColumns = sql`e.chain_seq, e.id,
  to_char(e.occurred_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at,
  e.event, e.user_id::text as user_id, e.ip, e.details::text as details_text`;

// jsonb escapes exactly what JSON.stringify escapes for text PostgreSQL can hold (no lone surrogates).
const jsonString = (value: string | null): string => (value === null ? 'null' : JSON.stringify(value));

export function canonicalContent(row: ContentRow): Buffer {
  if (!/^\d+$/.test(row.chain_seq) || !/^\d+$/.test(row.id)) throw new Error('audit row: bad chain_seq or id');
  const parts = [
    row.chain_seq,
    row.id,
    jsonString(row.at),
    jsonString(row.event),
    jsonString(row.user_id),
    jsonString(row.ip),
    row.details_text,
  ];
  return Buffer.from(`[${parts.join(', ')}]`, 'utf8');
}
