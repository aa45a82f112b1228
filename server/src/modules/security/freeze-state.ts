import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';

/**
 * Whether a user froze the account (migration 0076), for every place coins could leave it. Kept
 * apart from freeze.ts (which moves withdrawals) so withdrawals/outflow-holds.ts can ask without an
 * import cycle.
 */
export interface FreezeState {
  frozen: boolean;
  frozenAt: Date | null;
  /** When an asked-for unfreeze takes effect; null while none is asked for (or when not frozen). */
  thawsAt: Date | null;
  /**
   * Compliance froze the account (migration 0098, ops-users/actions.ts): only compliance lifts that;
   * the owner's unfreeze is refused while it stands. thawsAt is then null.
   */
  byOperator: boolean;
}

const NOT_FROZEN: FreezeState = { frozen: false, frozenAt: null, thawsAt: null, byOperator: false };

export async function freezeState(db: Kysely<Database>, userId: string, now: Date): Promise<FreezeState> {
  const byOperator = await db
    .selectFrom('operator_freezes')
    .select('placed_at')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (byOperator) return { frozen: true, frozenAt: byOperator.placed_at, thawsAt: null, byOperator: true };
  const row = await db
    .selectFrom('account_freezes')
    .select(['frozen_at', 'thaws_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row || (row.thaws_at !== null && row.thaws_at <= now)) return NOT_FROZEN;
  return { frozen: true, frozenAt: row.frozen_at, thawsAt: row.thaws_at, byOperator: false };
}

/** ACCOUNT_FROZEN, with details.retryAfterSeconds when an unfreeze is under way. */
export function accountFrozenError(state: FreezeState, now: Date): AppError {
  const message = 'The account is frozen: nothing may leave it';
  if (state.thawsAt === null) return new AppError('ACCOUNT_FROZEN', message);
  const retryAfterSeconds = Math.max(1, Math.ceil((state.thawsAt.getTime() - now.getTime()) / 1000));
  return new AppError('ACCOUNT_FROZEN', message, { details: { retryAfterSeconds } });
}

export async function assertNotFrozen(db: Kysely<Database>, userId: string, now: Date): Promise<void> {
  const state = await freezeState(db, userId, now);
  if (state.frozen) throw accountFrozenError(state, now);
}

/** Users frozen at `now` (by themselves or by compliance), as a subquery (the signer takes none of their withdrawals). */
export function accountFrozenUsers(db: Kysely<Database>, now: Date) {
  return db
    .selectFrom('account_freezes')
    .select('user_id')
    .where((eb) => eb.or([eb('thaws_at', 'is', null), eb('thaws_at', '>', now)]))
    .union(db.selectFrom('operator_freezes').select('user_id'));
}
