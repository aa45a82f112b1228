import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { ConversionsTable } from '../../db/schema-convert.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { type Rational, rational } from '../prices/rational.ts';

type Db = Kysely<Database>;

export interface QuoteRecord {
  id: string;
  userId: string;
  from: CoinCode;
  to: CoinCode;
  amountMinor: bigint;
  feeMinor: bigint;
  receiveMinor: bigint;
  rate: Rational;
  minMinor: bigint;
  maxMinor: bigint;
  priceSource: string;
  createdAt: Date;
  expiresAt: Date;
}

export interface ConversionRecord {
  id: string;
  quoteId: string;
  userId: string;
  from: CoinCode;
  to: CoinCode;
  amountMinor: bigint;
  feeMinor: bigint;
  receiveMinor: bigint;
  rate: Rational;
  giveTransferId: string;
  getTransferId: string;
  createdAt: Date;
}

type ConversionRow = Selectable<ConversionsTable>;

const toConversion = (r: ConversionRow): ConversionRecord => ({
  id: r.id,
  quoteId: r.quote_id,
  userId: r.user_id,
  from: r.from_asset,
  to: r.to_asset,
  amountMinor: BigInt(r.amount_minor),
  feeMinor: BigInt(r.fee_minor),
  receiveMinor: BigInt(r.receive_minor),
  rate: rational(BigInt(r.rate_num), BigInt(r.rate_den)),
  giveTransferId: r.give_transfer_id,
  getTransferId: r.get_transfer_id,
  createdAt: r.created_at,
});

export async function markReplaced(db: Db, quoteId: string, replacedBy: string): Promise<void> {
  await db.updateTable('convert_quotes').set({ replaced_by: replacedBy }).where('id', '=', quoteId).execute();
}

export async function findConversion(db: Db, id: string, userId: string): Promise<ConversionRecord | undefined> {
  const row = await db
    .selectFrom('conversions')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row ? toConversion(row) : undefined;
}

/** Newest first; `after` is the (createdAt, id) of the last item of the previous page. */
export async function listConversions(
  db: Db,
  userId: string,
  limit: number,
  after: { createdAt: Date; id: string } | null,
  pair: { from?: CoinCode | undefined; to?: CoinCode | undefined } = {},
): Promise<ConversionRecord[]> {
  let query = db.selectFrom('conversions').selectAll().where('user_id', '=', userId);
  if (pair.from) query = query.where('from_asset', '=', pair.from);
  if (pair.to) query = query.where('to_asset', '=', pair.to);
  if (after) {
    query = query.where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    );
  }
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(toConversion);
}

/**
 * Retention (modules/retention): deletes up to `limit` quotes never accepted that expired more than a
 * day before `now` (an accepted quote is its conversion's record and stays). Returns how many.
 */
export async function purgeExpiredQuotes(db: Kysely<Database>, now: Date, limit: number): Promise<number> {
  const before = new Date(now.getTime() - 86_400_000);
  const result = await sql`delete from convert_quotes where id in (
    select q.id from convert_quotes q
    where q.expires_at < ${before} and not exists (select 1 from conversions c where c.quote_id = q.id)
    limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0n);
}
