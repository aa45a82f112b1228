import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, ValidationError } from '../../errors/app-error.ts';
import type { CoinCode, NetworkCode } from '../catalogue/catalogue.ts';
import type { HistoryItem, HistoryPage, HistoryQuery, HistoryType } from './schemas.ts';

/**
 * The unified wallet history: deposits, withdrawals and sends (both directions) in one list,
 * newest first, keyset-paginated on (created_at, type, id) so a page never skips or repeats a
 * record while new ones arrive. The cursor is opaque to the client.
 */
export interface HistoryService {
  page(userId: string, query: HistoryQuery): Promise<HistoryPage>;
}

/**
 * Exchange payouts and refunds travel as withdrawals of the order's user (exchange/payouts.ts) keyed
 * `exchange:<order>:...`; they belong to the exchange order and its own history, not to the wallet's:
 * a BNB payout is not a withdrawal of BNB the user ever held.
 */
const EXCHANGE_KEY_PREFIX = 'exchange:';

interface Cursor {
  /** created_at in microseconds since the epoch (PostgreSQL's precision; a JS Date has only ms). */
  atUs: string;
  /** `<type>:<id>`: breaks ties between records created in the same microsecond. */
  key: string;
}

const badCursor = () =>
  new ValidationError('Invalid cursor', [{ field: 'cursor', message: 'is not a cursor of this list', rule: 'format' }]);

export function encodeCursor(c: Cursor): string {
  return Buffer.from(`${c.atUs}|${c.key}`, 'utf8').toString('base64url');
}

export function decodeCursor(text: string): Cursor {
  const decoded = Buffer.from(text, 'base64url').toString('utf8');
  const match = /^(\d{1,20})\|((?:deposit|withdrawal|send):[0-9a-f-]{1,36})$/.exec(decoded);
  if (!match) throw badCursor();
  return { atUs: match[1] ?? '', key: match[2] ?? '' };
}

/**
 * Both bounds are inclusive. `YYYY-MM-DD` is a whole UTC day: as `from` its start, as `to` the start of
 * the next day; an instant as `to` becomes the next millisecond. Either way `to` is returned exclusive.
 */
export function parseBound(text: string | undefined, field: 'from' | 'to'): Date | undefined {
  if (text === undefined) return undefined;
  const dateOnly = /^\d{4}-\d{2}-\d{2}$/.test(text);
  const at = new Date(dateOnly ? `${text}T00:00:00.000Z` : text);
  if (Number.isNaN(at.getTime()))
    throw new ValidationError(`Invalid ${field}`, [{ field, message: 'is not a date', rule: 'format' }]);
  if (field === 'to') {
    if (dateOnly) at.setUTCDate(at.getUTCDate() + 1);
    else at.setTime(at.getTime() + 1);
  }
  return at;
}

interface Row {
  type: HistoryType;
  id: string;
  direction: 'in' | 'out';
  coin: CoinCode;
  network: NetworkCode | null;
  amount_minor: string;
  fee_minor: string;
  state: string;
  address: string | null;
  tx_hash: string | null;
  created_at: Date;
  at_us: string;
  sort_key: string;
}

export function createHistoryService({ db }: { db: Kysely<Database> }): HistoryService {
  return {
    async page(userId, query) {
      const from = parseBound(query.from, 'from');
      const to = parseBound(query.to, 'to');
      if (from && to && from >= to)
        throw new AppError('DATE_RANGE_INVALID', 'The start date may not be after the end date', {
          details: [{ field: 'from', message: 'is after to', rule: 'range' }],
        });
      const limit = Math.min(query.limit ?? 20, 50);
      const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const want = (type: HistoryType) => query.type === undefined || query.type === type;

      const branches = [];
      if (want('deposit'))
        branches.push(sql`
          select 'deposit' as type, d.id::text as id, 'in' as direction, d.coin, d.network, d.amount_minor::text,
                 '0' as fee_minor, d.state, d.to_address as address, d.tx_hash, d.created_at
          from deposits d where d.user_id = ${userId}`);
      if (want('withdrawal'))
        branches.push(sql`
          select 'withdrawal', w.id::text, 'out', w.coin, w.network, w.amount_minor::text, w.fee_minor::text,
                 -- A second approval is an operator's step: the user sees the review (withdrawals/state-machine.ts).
                 case when w.state = 'awaiting_second_approval' then 'in_review' else w.state end,
                 w.address, w.tx_hash, w.created_at
          from withdrawals w where w.user_id = ${userId} and w.idempotency_key not like ${`${EXCHANGE_KEY_PREFIX}%`}`);
      if (want('send'))
        branches.push(
          sql`
          select 'send', s.id::text, 'out', s.coin, s.network, s.amount_minor::text, '0', 'successful',
                 s.recipient, null, s.created_at
          from sends s where s.from_user_id = ${userId}`,
          sql`
          select 'send', s.id::text, 'in', s.coin, null, s.amount_minor::text, '0', 'successful',
                 null, null, s.created_at
          from sends s where s.to_user_id = ${userId}`,
        );

      const conditions = [sql`true`];
      if (query.coin) conditions.push(sql`h.coin = ${query.coin}`);
      if (from) conditions.push(sql`h.created_at >= ${from}`);
      if (to) conditions.push(sql`h.created_at < ${to}`);
      const atUs = sql`(extract(epoch from h.created_at) * 1000000)::bigint`;
      const sortKey = sql`(h.type || ':' || h.id)`;
      if (cursor) conditions.push(sql`(${atUs}, ${sortKey}) < (${cursor.atUs}::bigint, ${cursor.key})`);

      const { rows } = await sql<Row>`
        select h.*, ${atUs}::text as at_us, ${sortKey} as sort_key
        from (${sql.join(branches, sql` union all `)}) as h(type, id, direction, coin, network, amount_minor, fee_minor, state, address, tx_hash, created_at)
        where ${sql.join(conditions, sql` and `)}
        order by ${atUs} desc, ${sortKey} desc
        limit ${limit + 1}`.execute(db);

      const items: HistoryItem[] = rows.slice(0, limit).map((r) => ({
        type: r.type,
        id: r.id,
        direction: r.direction,
        coin: r.coin,
        network: r.network,
        amountMinor: r.amount_minor,
        feeMinor: r.fee_minor,
        state: r.state,
        address: r.address,
        txHash: r.tx_hash,
        createdAt: r.created_at.toISOString(),
      }));
      const last = rows[limit - 1];
      const nextCursor = rows.length > limit && last ? encodeCursor({ atUs: last.at_us, key: last.sort_key }) : null;
      return { items, nextCursor };
    },
  };
}
