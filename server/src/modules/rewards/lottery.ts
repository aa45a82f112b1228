import { createHash, randomBytes } from 'node:crypto';
import { drawPrizeIndex } from '@cw/shared-state/lottery';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { payReward } from '../ledger/operations.ts';
import { findLiveAnnouncement, listAnnouncements } from '../notices/repository.ts';
import type { NoticeLanguage } from '../notices/schemas.ts';
import { currentStreak } from './claims.ts';
import { utcDay } from './days.ts';
import { DrawFailedError, NoMoreDrawsError } from './errors.ts';
import type { RewardsConfig } from './rewards-config.ts';

/**
 * The likes lottery. Likes of live announcements earn draws (every `likesPerDraw` likes made in a
 * UTC day, at most `drawsPerDay`, plus one for a check-in streak of `streakDaysForDraw`). A day's
 * seed is created (and its SHA-256 shown) before its first draw and revealed once the day is over;
 * draw n is computed by the shared `drawPrizeIndex`, so the browser can recompute it. The allowance
 * check, the draw row and its prize posting are one transaction under a lock on the user's row:
 * concurrent draws never exceed the allowance, and a prize the pool cannot pay fails the whole draw.
 */

type Db = Kysely<Database>;

/** Posts offered for liking: the newest live announcements. */
const POSTS_MAX = 20;

export async function daySeed(db: Db, day: string, at: Date): Promise<{ seed: Buffer; commitment: string }> {
  const existing = await db
    .selectFrom('lottery_seeds')
    .select(['seed', 'commitment'])
    .where('day', '=', day)
    .executeTakeFirst();
  if (existing) return existing;
  const seed = randomBytes(32);
  await db
    .insertInto('lottery_seeds')
    .values({ day, seed, commitment: createHash('sha256').update(seed).digest('hex'), created_at: at })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  return db.selectFrom('lottery_seeds').select(['seed', 'commitment']).where('day', '=', day).executeTakeFirstOrThrow();
}

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
  const { seed } = await daySeed(db, day, at);
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
      const prizeIndex = await drawPrizeIndex(new Uint8Array(seed), userId, day, n, config.prizes);
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
      return { day, n, prizeIndex, asset: config.asset, prizeMinor: prize.amountMinor.toString() };
    });
  } catch (err) {
    if (err instanceof InsufficientBalanceError) throw new DrawFailedError(err);
    throw err;
  }
}

export async function listDraws(db: Db, userId: string, day: string) {
  const rows = await db
    .selectFrom('lottery_draws')
    .selectAll()
    .where('user_id', '=', userId)
    .where('day', '=', day)
    .orderBy('n')
    .execute();
  return rows.map((r) => ({
    n: r.n,
    prizeIndex: r.prize_index,
    asset: r.asset,
    prizeMinor: r.prize_minor,
    drawnAt: r.created_at,
  }));
}

/** A day's commitment, and its seed once the day is over (never before). */
export async function seedView(db: Db, day: string, at: Date) {
  const row = await db
    .selectFrom('lottery_seeds')
    .select(['seed', 'commitment'])
    .where('day', '=', day)
    .executeTakeFirst();
  if (!row) return undefined;
  const revealed = day < utcDay(at);
  return { day, commitment: row.commitment, seed: revealed ? row.seed.toString('hex') : null };
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
