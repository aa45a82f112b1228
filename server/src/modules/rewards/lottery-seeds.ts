import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_SEED_PATTERN } from '@cw/shared-state/lottery';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, ValidationError } from '../../errors/app-error.ts';
import { assert } from '../ledger/model.ts';
import { utcDay } from './days.ts';
import { PrizeTableChangedError } from './errors.ts';

/**
 * The users' committed server seeds (issue 36 item 15, migration 0063). A user always has a `next`
 * seed whose SHA-256 (commitment) is shown; setting a client seed names that commitment, retires
 * (reveals) the active seed, activates the next one with the client seed and commits a new next. The
 * server therefore fixes its seed before it learns the client seed it is mixed with, and a trigger
 * keeps a seed and a set client seed from ever changing. Draws run on the active pair, nonce 1, 2, ...
 */

type Db = Kysely<Database> | Transaction<Database>;

/** Client-seed changes a user may make in a UTC day (each commits a new server seed row). */
export const CLIENT_SEED_CHANGES_PER_DAY = 20;

const commitmentOf = (seed: Buffer) => createHash('sha256').update(seed).digest('hex');

/** The user's next server seed (no client seed yet), created on first need. Returns its commitment. */
export async function nextCommitmentOf(db: Db, userId: string, at: Date): Promise<string> {
  const found = async () =>
    db
      .selectFrom('lottery_server_seeds')
      .select('commitment')
      .where('user_id', '=', userId)
      .where('activated_at', 'is', null)
      .executeTakeFirst();
  const existing = await found();
  if (existing) return existing.commitment;
  const seed = randomBytes(32);
  await sql`insert into lottery_server_seeds (user_id, seed, commitment, created_at)
    values (${userId}, ${seed}, ${commitmentOf(seed)}, ${at})
    on conflict (user_id) where activated_at is null do nothing`.execute(db);
  const row = await found();
  assert(row !== undefined, 'a next server seed exists after creating one');
  return row.commitment;
}

export interface ActiveSeed {
  id: string;
  seed: Buffer;
  commitment: string;
  clientSeed: string;
  /** Draws made on this pair so far (the next draw's nonce is one more). */
  used: number;
  /** The prize table the pair was chosen against (null: set before migration 0064, draws nothing). */
  prizeTableHash: string | null;
}

/** The user's active pair (client seed set, not retired), with the draws made on it. */
export async function activeSeedOf(db: Db, userId: string): Promise<ActiveSeed | undefined> {
  const row = await db
    .selectFrom('lottery_server_seeds as s')
    .select([
      's.id',
      's.seed',
      's.commitment',
      's.client_seed',
      's.prize_table_hash',
      sql<string>`(select coalesce(max(d.nonce), 0) from lottery_draws d where d.server_seed_id = s.id)`.as('used'),
    ])
    .where('s.user_id', '=', userId)
    .where('s.activated_at', 'is not', null)
    .where('s.retired_at', 'is', null)
    .executeTakeFirst();
  if (!row || row.client_seed === null) return undefined;
  return {
    id: row.id,
    seed: row.seed,
    commitment: row.commitment,
    clientSeed: row.client_seed,
    used: Number(row.used),
    prizeTableHash: row.prize_table_hash,
  };
}

export async function fairnessView(db: Db, userId: string, at: Date) {
  const nextCommitment = await nextCommitmentOf(db, userId, at);
  const active = await activeSeedOf(db, userId);
  return {
    userId,
    active: active
      ? {
          commitment: active.commitment,
          clientSeed: active.clientSeed,
          nonce: active.used,
          prizeTableHash: active.prizeTableHash,
        }
      : null,
    nextCommitment,
  };
}

/**
 * Sets the user's client seed: `commitment` must be the next seed's commitment the user was shown
 * (CONFLICT otherwise: it changed, reload). The pair is bound to the configured prize table
 * (`prizeTableHash`); `seenPrizeTableHash`, the table the user was shown, must be that one
 * (PRIZE_TABLE_CHANGED otherwise). The active seed is retired and revealed in the answer.
 */
export async function setClientSeed(
  db: Kysely<Database>,
  input: {
    userId: string;
    clientSeed: string;
    commitment: string;
    prizeTableHash: string;
    seenPrizeTableHash?: string | undefined;
    at: Date;
  },
) {
  if (!CLIENT_SEED_PATTERN.test(input.clientSeed)) {
    throw new ValidationError('A client seed is 1 to 64 printable characters without spaces');
  }
  if (input.seenPrizeTableHash !== undefined && input.seenPrizeTableHash !== input.prizeTableHash) {
    throw new PrizeTableChangedError();
  }
  const revealed = await db.transaction().execute(async (trx) => {
    await trx.selectFrom('users').select('id').where('id', '=', input.userId).forUpdate().executeTakeFirstOrThrow();
    const changes = await trx
      .selectFrom('lottery_server_seeds')
      .select(sql<string>`count(*)`.as('n'))
      .where('user_id', '=', input.userId)
      .where('activated_at', '>=', new Date(`${utcDay(input.at)}T00:00:00Z`))
      .executeTakeFirstOrThrow();
    if (Number(changes.n) >= CLIENT_SEED_CHANGES_PER_DAY) {
      throw new AppError('RATE_LIMITED', `At most ${CLIENT_SEED_CHANGES_PER_DAY} client seeds a day`);
    }
    const next = await trx
      .selectFrom('lottery_server_seeds')
      .select(['id', 'commitment'])
      .where('user_id', '=', input.userId)
      .where('activated_at', 'is', null)
      .executeTakeFirst();
    if (!next || next.commitment !== input.commitment) {
      throw new AppError('CONFLICT', 'The commitment shown is no longer the next one: reload and choose again');
    }
    const retired = await trx
      .updateTable('lottery_server_seeds')
      .set({ retired_at: input.at })
      .where('user_id', '=', input.userId)
      .where('activated_at', 'is not', null)
      .where('retired_at', 'is', null)
      .returning(['commitment', 'seed'])
      .executeTakeFirst();
    await trx
      .updateTable('lottery_server_seeds')
      .set({ client_seed: input.clientSeed, activated_at: input.at, prize_table_hash: input.prizeTableHash })
      .where('id', '=', next.id)
      .execute();
    return retired ? { commitment: retired.commitment, serverSeed: retired.seed.toString('hex') } : null;
  });
  return { ...(await fairnessView(db, input.userId, input.at)), revealed };
}
