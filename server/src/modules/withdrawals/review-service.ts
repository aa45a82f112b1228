import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, ValidationError } from '../../errors/app-error.ts';
import { type CoinCode, coinCodes, coinDecimals } from '../catalogue/catalogue.ts';
import type { PlatformAddresses } from '../catalogue/platform-addresses.ts';
import { PriceUnavailableError } from '../prices/errors.ts';
import type { PriceService } from '../prices/service.ts';
import { type FourEyesBecause, listDecisions } from './decisions-repository.ts';
import {
  type ApprovalOutcome,
  approveInReview,
  type DecidingOperator,
  fourEyesBecause,
  type ReviewValuation,
  rejectInReview,
  requestSecondLook,
} from './four-eyes.ts';
import { auditRefusalQuietly, withRefusalAudited } from './refused-decisions.ts';
import type { WithdrawalRow } from './repository.ts';
import { type RiskSignals, riskSignals } from './risk-signals.ts';
import { rollingOthersUsdCents } from './rolling-value.ts';
import { type ReviewState, reviewStates } from './state-machine.ts';

/** The default second-approval value: above $10,000 at the review-time price, two finance operators approve. */
export const SECOND_APPROVAL_USD_DEFAULT = 10_000;
export const QUEUE_PAGE_MAX = 50;
export const BULK_MAX = 50;

/**
 * WITHDRAWAL_SECOND_APPROVAL_USD in cents, read at each decision (the server's config check refuses a
 * bad value at start; here a bad one falls back to the default rather than to "no four eyes").
 */
export function secondApprovalUsdCents(env: NodeJS.ProcessEnv = process.env): bigint {
  const text = env.WITHDRAWAL_SECOND_APPROVAL_USD?.trim() || String(SECOND_APPROVAL_USD_DEFAULT);
  return /^[1-9]\d{0,11}$/.test(text) ? BigInt(text) * 100n : BigInt(SECOND_APPROVAL_USD_DEFAULT) * 100n;
}

/**
 * USD cents (rounded up) of `amountMinor` at the FRESH price only: a stale or missing price values
 * nothing, so the withdrawal needs two approvals (fail closed; the decision records `price_unavailable`).
 */
export function reviewTimeValuer(prices: Pick<PriceService, 'price'> | null) {
  return (coin: CoinCode, amountMinor: bigint): bigint | null => {
    if (!prices || !(coinCodes as readonly string[]).includes(coin)) return null;
    try {
      const usd = prices.price(coin, 'USD');
      const den = usd.den * 10n ** BigInt(coinDecimals(coin));
      return (amountMinor * usd.num * 100n + den - 1n) / den;
    } catch (err) {
      if (err instanceof PriceUnavailableError) return null;
      throw err;
    }
  };
}

export interface QueueItem {
  withdrawal: WithdrawalRow;
  username: string;
  valueUsdCents: bigint | null;
  /** Why two approvals are needed (for one awaiting its second: why the first asked for it); null: one suffices. */
  fourEyes: FourEyesBecause | null;
  signals: RiskSignals;
  decisions: Awaited<ReturnType<typeof listDecisions>>;
}

export interface BulkResult {
  id: string;
  outcome: 'approved' | 'needs_four_eyes' | 'refused';
  code?: string;
  message?: string;
}

export interface WithdrawalReview {
  queue(query: { state?: ReviewState; after?: string; limit?: number }): Promise<{
    items: QueueItem[];
    next: string | null;
    waiting: number;
    thresholdUsdCents: bigint;
  }>;
  /** `firstOnly`: the ops CLI, which may not give a second approval (ops-commands.ts). */
  approve(id: string, by: DecidingOperator, options?: { firstOnly?: boolean }): Promise<ApprovalOutcome>;
  reject(id: string, by: DecidingOperator, reason: string): Promise<WithdrawalRow>;
  secondLook(id: string, by: DecidingOperator, reason: string): Promise<WithdrawalRow>;
  /** Approves each withdrawal that one approval completes; each in its own transaction, each result told. */
  bulkApprove(ids: readonly string[], by: DecidingOperator): Promise<BulkResult[]>;
}

const cursorOf = (row: WithdrawalRow) => `${row.created_at.toISOString()}_${row.id}`;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parseCursor(text: string): { at: Date; id: string } {
  const [iso = '', id = ''] = text.split('_');
  const at = new Date(iso);
  if (Number.isNaN(at.getTime()) || !uuid.test(id))
    throw new ValidationError('Bad cursor', [{ field: 'after', message: 'not a cursor of this list', rule: 'cursor' }]);
  return { at, id };
}

export function createWithdrawalReview(deps: {
  db: Kysely<Database>;
  now: () => Date;
  /** The price cache; null (the ops CLI) values nothing, so every approval needs a second (fail closed). */
  prices: Pick<PriceService, 'price'> | null;
  platform?: PlatformAddresses | null;
  /** Default: WITHDRAWAL_SECOND_APPROVAL_USD, read at each decision. */
  thresholdUsdCents?: () => bigint;
}): WithdrawalReview {
  const { db, now } = deps;
  const valuer = reviewTimeValuer(deps.prices);
  const valuation = (): ReviewValuation => ({
    valueUsdCents: valuer,
    thresholdUsdCents: (deps.thresholdUsdCents ?? secondApprovalUsdCents)(),
  });

  return {
    async queue(query) {
      const limit = Math.min(Math.max(query.limit ?? 20, 1), QUEUE_PAGE_MAX);
      const states = query.state ? [query.state] : [...reviewStates];
      let q = db
        .selectFrom('withdrawals as w')
        .leftJoin('accounts as a', 'a.user_id', 'w.user_id')
        .selectAll('w')
        .select('a.username')
        .where('w.state', 'in', states)
        .orderBy('w.created_at')
        .orderBy('w.id')
        .limit(limit + 1);
      if (query.after) {
        const c = parseCursor(query.after);
        q = q.where((eb) =>
          eb.or([eb('w.created_at', '>', c.at), eb.and([eb('w.created_at', '=', c.at), eb('w.id', '>', c.id)])]),
        );
      }
      const rows = await q.execute();
      const page = rows.slice(0, limit);
      const at = now();
      const items: QueueItem[] = [];
      const threshold = valuation().thresholdUsdCents;
      for (const { username, ...w } of page) {
        const decisions = await listDecisions(db, w.id);
        const valueUsdCents = valuer(w.coin, BigInt(w.amount_minor));
        const fourEyes =
          w.state === 'awaiting_second_approval'
            ? (decisions.find((d) => d.decision === 'approve')?.four_eyes_because ?? 'above_threshold')
            : fourEyesBecause(
                w,
                valueUsdCents,
                threshold,
                decisions.some((d) => d.decision === 'second_look'),
                // As the approval weighs it: with the user's other withdrawals of the last 24 h (splits).
                await rollingOthersUsdCents(db, w, valuer, at),
              );
        items.push({
          withdrawal: w,
          username: username ?? '',
          valueUsdCents,
          fourEyes,
          signals: await riskSignals(db, deps.platform ?? null, w, at),
          decisions,
        });
      }
      // How many wait in all, counted up to a bound (a flood of rows must not make the page slow).
      const counted = await db
        .selectFrom((eb) =>
          eb.selectFrom('withdrawals').select('id').where('state', 'in', states).limit(10_000).as('open'),
        )
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow();
      const last = page.at(-1);
      return {
        items,
        next: rows.length > limit && last ? cursorOf(last) : null,
        waiting: Number(counted.n),
        thresholdUsdCents: threshold,
      };
    },

    approve(id, by, options) {
      return withRefusalAudited(db, { withdrawalId: id, by, decision: 'approve', at: now }, () =>
        db
          .transaction()
          .execute((trx) =>
            approveInReview(trx, id, by, valuation(), now(), { firstOnly: options?.firstOnly ?? false }),
          ),
      );
    },

    reject(id, by, reason) {
      return withRefusalAudited(db, { withdrawalId: id, by, decision: 'reject', at: now }, () =>
        db.transaction().execute((trx) => rejectInReview(trx, id, by, reason, now())),
      );
    },

    secondLook(id, by, reason) {
      return withRefusalAudited(db, { withdrawalId: id, by, decision: 'second_look', at: now }, () =>
        db.transaction().execute((trx) => requestSecondLook(trx, id, by, reason, now())),
      );
    },

    async bulkApprove(ids, by) {
      const unique = [...new Set(ids)];
      if (unique.length === 0 || unique.length > BULK_MAX)
        throw new ValidationError(`Between 1 and ${BULK_MAX} withdrawals at once`);
      const results: BulkResult[] = [];
      for (const id of unique) {
        try {
          const r = await db
            .transaction()
            .execute((trx) => approveInReview(trx, id, by, valuation(), now(), { singleOnly: true }));
          results.push({ id, outcome: r.outcome === 'approved' ? 'approved' : 'needs_four_eyes' });
        } catch (err) {
          // Each item is its own transaction, so the earlier ones stand: an unexpected error is told
          // for its item rather than aborting the answer (the operator must learn which went through).
          if (err instanceof AppError) {
            results.push({ id, outcome: 'refused', code: err.code, message: err.message });
            await auditRefusalQuietly(db, { withdrawalId: id, by, decision: 'bulk_approve', error: err, at: now() });
          } else results.push({ id, outcome: 'refused', code: 'INTERNAL', message: 'Unexpected error; not approved' });
        }
      }
      return results;
    },
  };
}
