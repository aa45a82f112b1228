import { createHash } from 'node:crypto';
import { canonicalPrizeTable, drawWithClientSeed, type Prize } from '@cw/shared-state/lottery';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { payReward } from '../ledger/operations.ts';
import { findLiveAnnouncement, listAnnouncements } from '../notices/repository.ts';
import type { NoticeLanguage } from '../notices/schemas.ts';
import { currentStreak } from './claims.ts';
import { utcDay } from './days.ts';
import { ClientSeedRequiredError, DrawFailedError, NoMoreDrawsError, PrizeTableChangedError } from './errors.ts';
import { activeSeedOf } from './lottery-seeds.ts';
import type { RewardsConfig } from './rewards-config.ts';

/**
 * The likes lottery. Likes of live announcements earn draws (every `likesPerDraw` likes made in a
 * UTC day, at most `drawsPerDay`, plus one for a check-in streak of `streakDaysForDraw`). A day's
 * draw runs on the user's active pair of a committed server seed and the user's client seed
 * (`lottery-seeds.ts`), nonce 1, 2, ... computed by the shared `drawWithClientSeed`, and returns every
 * input, so the browser verifies it alone once the server seed is revealed. (Draws made before client
 * seeds ran on a day seed, `lottery_seeds`, revealed after the day.) The allowance
 * check, the draw row and its prize posting are one transaction under a lock on the user's row:
 * concurrent draws never exceed the allowance, and a prize the pool cannot pay fails the whole draw.
 */

type Db = Kysely<Database>;

/** Posts offered for liking: the newest live announcements. */
const POSTS_MAX = 20;

export async function listPosts(db: Db, input: { userId: string; language: NoticeLanguage; at: Date }) {
  const posts = await listAnnouncements(db, {
    at: input.at,
    language: input.language,
    userId: input.userId,
    limit: POSTS_MAX,
  });
  const ids = posts.map((p) => p.id);
  const liked =
    ids.length === 0
      ? new Set<string>()
      : new Set(
          (
            await db
              .selectFrom('announcement_likes')
              .select('announcement_id')
              .where('user_id', '=', input.userId)
              .where('announcement_id', 'in', ids)
              .execute()
          ).map((r) => r.announcement_id),
        );
  return posts.map((p) => ({
    id: p.id,
    title: p.title,
    category: p.category,
    publishAt: p.publish_at,
    liked: liked.has(p.id),
  }));
}

export async function likePost(db: Db, input: { userId: string; announcementId: string; at: Date }): Promise<void> {
  const live = await findLiveAnnouncement(db, {
    id: input.announcementId,
    at: input.at,
    language: 'zh-CN',
    userId: null,
  });
  if (!live) throw new NotFoundError('No such announcement');
  await db
    .insertInto('announcement_likes')
    .values({
      user_id: input.userId,
      announcement_id: input.announcementId,
      day: utcDay(input.at),
      created_at: input.at,
    })
    .onConflict((oc) => oc.columns(['user_id', 'announcement_id']).doNothing())
    .execute();
}

/** Draws earned in a day: one per `likesPerDraw` likes (at most `drawsPerDay`), one more for a long enough streak. */
export function earnedDraws(config: RewardsConfig, likesToday: number, streak: number): number {
  const bonus = streak >= config.streakDaysForDraw ? 1 : 0;
  return Math.min(config.drawsPerDay, Math.floor(likesToday / config.likesPerDraw)) + bonus;
}

export async function drawAllowance(db: Db, userId: string, config: RewardsConfig, at: Date) {
  const day = utcDay(at);
  const likes = await db
    .selectFrom('announcement_likes')
    .select(sql<string>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  const likesToday = Number(likes.n);
  const streak = await currentStreak(db, userId, at);
  return { day, likesToday, streak, earned: earnedDraws(config, likesToday, streak) };
}

export async function draw(db: Db, input: { userId: string; config: RewardsConfig; at: Date }) {
  const { config, userId, at } = input;
  const day = utcDay(at);
  const table = canonicalPrizeTable(config.prizes);
  const tableHash = prizeTableHashOf(config.prizes);
  try {
    return await db.transaction().execute(async (trx) => {
      await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirstOrThrow();
      // Likes and draws of today in one round trip; the streak (a bonus draw) only when it decides.
      const counts = await sql<{ likes: string; used: string }>`select
          (select count(*) from announcement_likes where user_id = ${userId} and day = ${day}) as likes,
          (select count(*) from lottery_draws where user_id = ${userId} and day = ${day}) as used`.execute(trx);
      const likes = Number(counts.rows[0]?.likes ?? 0);
      const n = Number(counts.rows[0]?.used ?? 0) + 1;
      if (n > earnedDraws(config, likes, 0) && n > earnedDraws(config, likes, await currentStreak(trx, userId, at))) {
        throw new NoMoreDrawsError();
      }
      // Under the user's lock: the active pair and its nonce cannot move until this commits.
      const active = await activeSeedOf(trx, userId);
      if (!active) throw new ClientSeedRequiredError();
      // The user chose this client seed against a prize table: other odds need a new choice.
      if (active.prizeTableHash !== tableHash) throw new PrizeTableChangedError();
      const nonce = active.used + 1;
      const prizeIndex = await drawWithClientSeed(new Uint8Array(active.seed), active.clientSeed, nonce, config.prizes);
      const prize = config.prizes[prizeIndex];
      if (!prize) throw new Error('prize index outside the table');
      await trx
        .insertInto('lottery_draws')
        .values({
          day,
          user_id: userId,
          n,
          prize_index: prizeIndex,
          asset: config.asset,
          prize_minor: prize.amountMinor.toString(),
          created_at: at,
          server_seed_id: active.id,
          nonce,
          prize_table: table,
        })
        .execute();
      if (prize.amountMinor > 0n) {
        await payReward(
          trx,
          {
            idempotencyKey: `reward:draw:${day}:${userId}:${n}`,
            userId,
            asset: config.asset,
            amountMinor: prize.amountMinor,
            to: 'available',
          },
          at,
        );
      }
      return drawView({
        day,
        n,
        prizeIndex,
        asset: config.asset,
        prizeMinor: prize.amountMinor.toString(),
        commitment: active.commitment,
        serverSeed: null,
        clientSeed: active.clientSeed,
        nonce,
        prizeTable: table,
      });
    });
  } catch (err) {
    if (err instanceof InsufficientBalanceError) throw new DrawFailedError(err);
    throw err;
  }
}

interface DrawRow {
  day: string;
  n: number;
  prizeIndex: number;
  asset: string;
  prizeMinor: string;
  commitment: string;
  serverSeed: string | null;
  clientSeed: string | null;
  nonce: number;
  prizeTable: string | null;
}

/** SHA-256 (hex) of a canonical prize table, as the browser computes it (`prizeTableHash`). */
const sha256Hex = (text: string) => createHash('sha256').update(text).digest('hex');

/** The hash a seed pair is bound to: SHA-256 of the canonical prize table. */
export const prizeTableHashOf = (prizes: RewardsConfig['prizes']) => sha256Hex(canonicalPrizeTable(prizes));

/** A draw with every input it verifies from (prize table and its SHA-256; null for day-seed draws). */
function drawView(r: DrawRow) {
  return {
    ...r,
    prizeTableHash: r.prizeTable === null ? null : sha256Hex(r.prizeTable),
    prizeTable: r.prizeTable === null ? null : (JSON.parse(r.prizeTable) as Prize[]),
  };
}

/**
 * The user's draws of a day with their inputs. A client-seed draw's server seed shows once retired
 * (the user set a new client seed); a day-seed draw's once the day is over.
 */
export async function listDraws(db: Db, userId: string, day: string, at: Date) {
  const rows = await db
    .selectFrom('lottery_draws as d')
    .leftJoin('lottery_server_seeds as s', 's.id', 'd.server_seed_id')
    .leftJoin('lottery_seeds as ds', 'ds.day', 'd.day')
    .select([
      'd.n',
      'd.prize_index',
      'd.asset',
      'd.prize_minor',
      'd.nonce',
      'd.prize_table',
      's.seed as server_seed',
      's.commitment as server_commitment',
      's.client_seed',
      's.retired_at',
      'ds.seed as day_seed',
      'ds.commitment as day_commitment',
    ])
    .where('d.user_id', '=', userId)
    .where('d.day', '=', day)
    .orderBy('d.n')
    .execute();
  const dayOver = day < utcDay(at);
  return rows.map((r) => {
    const own = r.nonce !== null;
    const revealed = own ? r.retired_at !== null : dayOver;
    const seed = own ? r.server_seed : r.day_seed;
    return drawView({
      day,
      n: r.n,
      prizeIndex: r.prize_index,
      asset: r.asset,
      prizeMinor: r.prize_minor,
      commitment: (own ? r.server_commitment : r.day_commitment) ?? '',
      serverSeed: revealed && seed ? seed.toString('hex') : null,
      clientSeed: own ? r.client_seed : null,
      nonce: r.nonce ?? r.n,
      prizeTable: r.prize_table,
    });
  });
}

/** Days (newest first) on which the user drew. */
export async function drawDays(db: Db, userId: string, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('lottery_draws')
    .select('day')
    .distinct()
    .where('user_id', '=', userId)
    .orderBy('day', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => r.day);
}
