import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import { InsufficientBalanceError } from '../ledger/errors.ts';
import { payReward } from '../ledger/operations.ts';
import { bookInvite, dueInvites, invitesToBook, settleInvite } from './invite-rewards.ts';
import type { RewardsConfig } from './rewards-config.ts';

/**
 * Books what the rewards programme owes, after the fact and exactly once: confirmed check-ins'
 * rewards (system_rewards -> user_rewards, key `reward:sign:<id>`) and inviters' rewards once an
 * invitee is credited a qualifying deposit (one deposit of the reward asset of at least
 * `inviteQualifyingMinor`; dust does not qualify), held in pending rewards for the claim delay and then
 * released or forfeited (invite-rewards.ts). Separate from
 * the chain watcher and the deposit processor, so a short rewards pool delays these bookings and
 * never a deposit or a block scan; each booking is its own transaction, and the ledger key makes a
 * repeat harmless.
 */

/** Bookings per pass and kind (bounded work; the next pass takes the rest). */
const BOOK_BATCH = 200;

export interface BookReport {
  signs: number;
  invites: number;
  /** Held invite rewards released to the inviter, or forfeited (invite-rewards.ts). */
  invitesReleased: number;
  invitesForfeited: number;
  /** The pool could not pay: what is left waits for the next pass. */
  poolShort: boolean;
  /** The assets whose pool could not pay a booking (each skipped for the rest of the pass, alerted). */
  shortAssets: string[];
  /**
   * Rows that failed for another reason (review L4): each is skipped for this pass (alerted) and
   * retried on the next, and never stops the other rows of the pass.
   */
  failures: RowFailure[];
}

export interface RowFailure {
  kind: 'sign' | 'invite' | 'invite-settle';
  /** The sign record's id, or the invitee's user id. */
  id: string;
  error: string;
}

async function bookSign(db: Kysely<Database>, id: string, at: Date): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .selectFrom('sign_records')
      .select(['user_id', 'asset', 'reward_minor', 'state', 'booked_at'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (r?.state !== 'confirmed' || r.booked_at !== null) return false;
    const amountMinor = BigInt(r.reward_minor);
    if (amountMinor > 0n) {
      await payReward(
        trx,
        {
          idempotencyKey: `reward:sign:${id}`,
          userId: r.user_id,
          asset: r.asset as CoinCode,
          amountMinor,
          to: 'rewards',
        },
        at,
      );
    }
    await trx.updateTable('sign_records').set({ booked_at: at }).where('id', '=', id).execute();
    return true;
  });
}

export async function bookPendingRewards(db: Kysely<Database>, config: RewardsConfig, at: Date): Promise<BookReport> {
  const report: BookReport = {
    signs: 0,
    invites: 0,
    invitesReleased: 0,
    invitesForfeited: 0,
    poolShort: false,
    shortAssets: [],
    failures: [],
  };
  const failed = (kind: RowFailure['kind'], id: string, err: unknown) =>
    report.failures.push({ kind, id, error: err instanceof Error ? err.message : String(err) });
  // Per asset (REWARDS_ASSET may have changed: older signs keep theirs): a pool that cannot pay one
  // asset's bookings skips that asset for the pass and never holds up another asset's.
  const short = async (
    asset: string,
    row: { kind: RowFailure['kind']; id: string },
    book: () => Promise<boolean>,
  ): Promise<boolean> => {
    if (report.shortAssets.includes(asset)) return false;
    try {
      return await book();
    } catch (err) {
      if (!(err instanceof InsufficientBalanceError)) {
        failed(row.kind, row.id, err);
        return false;
      }
      report.poolShort = true;
      report.shortAssets.push(asset);
      return false;
    }
  };
  const assets = await db
    .selectFrom('sign_records')
    .select('asset')
    .distinct()
    .where('state', '=', 'confirmed')
    .where('booked_at', 'is', null)
    .execute();
  for (const { asset } of assets) {
    const signs = await db
      .selectFrom('sign_records')
      .select('id')
      .where('state', '=', 'confirmed')
      .where('booked_at', 'is', null)
      .where('asset', '=', asset)
      .orderBy('confirmed_at')
      .limit(BOOK_BATCH)
      .execute();
    for (const { id } of signs)
      if (await short(asset, { kind: 'sign', id }, () => bookSign(db, id, at))) report.signs++;
  }
  const invites = await invitesToBook(db, config, BOOK_BATCH);
  for (const { invitee_id: id } of invites)
    if (await short(config.asset, { kind: 'invite', id }, () => bookInvite(db, id, config, at))) report.invites++;
  for (const { invitee_id } of await dueInvites(db, at, BOOK_BATCH)) {
    // Its own transaction: a row that fails (whatever the reason) is rolled back alone.
    const outcome = await settleInvite(db, invitee_id, at).catch((err: unknown) => {
      failed('invite-settle', invitee_id, err);
      return undefined;
    });
    if (outcome === 'released') report.invitesReleased++;
    if (outcome === 'forfeited') report.invitesForfeited++;
  }
  return report;
}

/** Runs `bookPendingRewards` every `intervalMs` and when nudged (a check-in was confirmed). */
export function startRewardsBooker(options: {
  db: Kysely<Database>;
  config: RewardsConfig;
  intervalMs: number;
  onError: (err: unknown) => void;
  onPoolShort: (assets: readonly string[]) => void;
  /** Rows skipped this pass for an error other than a short pool (retried next pass). */
  onRowFailures: (failures: readonly RowFailure[]) => void;
  now?: () => Date;
}): { nudge(): void; stop(): Promise<void> } {
  const now = options.now ?? (() => new Date());
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  let queued = false;
  let timer: NodeJS.Timeout | undefined;
  // At most one pass waits behind the running one: a burst of confirmations is one more pass, not many.
  const pass = () => {
    if (queued) return;
    queued = true;
    running = running.then(async () => {
      queued = false;
      if (stopped) return;
      try {
        const r = await bookPendingRewards(options.db, options.config, now());
        if (r.poolShort) options.onPoolShort(r.shortAssets);
        if (r.failures.length > 0) options.onRowFailures(r.failures);
      } catch (err) {
        options.onError(err);
      }
    });
  };
  const schedule = () => {
    timer = setTimeout(() => {
      pass();
      if (!stopped) schedule();
    }, options.intervalMs);
    timer.unref();
  };
  schedule();
  pass();
  return {
    nudge: pass,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
