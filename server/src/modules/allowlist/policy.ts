import { canonicalAddress } from '@cw/shared-state/address';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';

/** Default hold before a newly trusted entry is usable, and before turning the allowlist off takes effect. */
export const ALLOWLIST_HOLD_MS = 24 * 3_600_000;
/** Bounds of the configured hold: never shorter than an hour (a thief's session), never over 30 days. */
export const ALLOWLIST_HOLD_MIN_MS = 3_600_000;
export const ALLOWLIST_HOLD_MAX_MS = 30 * 24 * 3_600_000;

type Db = Kysely<Database> | Transaction<Database>;

export interface AllowlistState {
  /** Withdrawals and sends are limited to trusted, released entries now. */
  on: boolean;
  /** When a requested turn-off takes effect (on until then); null when none is pending. */
  offAt: Date | null;
}

/** The user's allowlist at `now`: on while a row exists whose off_at is unset or still ahead. */
export async function allowlistState(db: Db, userId: string, now: Date): Promise<AllowlistState> {
  const row = await db
    .selectFrom('withdrawal_allowlists')
    .select(['off_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) return { on: false, offAt: null };
  if (row.off_at !== null && row.off_at.getTime() <= now.getTime()) return { on: false, offAt: null };
  return { on: true, offAt: row.off_at };
}

/** Where coins would go: an address on a network, or (a send by e-mail) no address at all. */
export type Destination = { network: NetworkCode; address: string } | null;

/**
 * Throws when the allowlist is on and `to` is not a trusted entry released from its hold:
 * ADDRESS_NOT_ALLOWLISTED (not in the book, not trusted, or a send by e-mail), or
 * ADDRESS_ALLOWLIST_HOLD with details.until and retryAfterSeconds while the entry's hold runs.
 * Called once before the e-mail code is spent (a clear answer) and again under the outflow lock
 * inside the money transaction, where toggles and trust changes serialise with it.
 */
export async function assertAllowlisted(db: Db, userId: string, to: Destination, now: Date): Promise<void> {
  const state = await allowlistState(db, userId, now);
  if (!state.on) return;
  const notListed = () =>
    new AppError('ADDRESS_NOT_ALLOWLISTED', 'The withdrawal allowlist is on: only trusted address-book entries');
  if (to === null) throw notListed();
  const entry = await db
    .selectFrom('address_book')
    .select(['usable_at'])
    .where('user_id', '=', userId)
    .where('network', '=', to.network)
    .where('address', '=', canonicalAddress(to.network, to.address))
    .where('usable_at', 'is not', null)
    .executeTakeFirst();
  const usableAt = entry?.usable_at;
  if (!usableAt) throw notListed();
  if (usableAt.getTime() > now.getTime()) {
    throw new AppError('ADDRESS_ALLOWLIST_HOLD', 'This trusted address is usable once its hold ends', {
      details: {
        until: usableAt.toISOString(),
        retryAfterSeconds: Math.ceil((usableAt.getTime() - now.getTime()) / 1000),
      },
    });
  }
}

/**
 * Throws PAYOUT_METHOD_ALLOWLIST_HOLD (details.until, retryAfterSeconds) when the allowlist is on and
 * the sell's payout method is still on its hold (review of issue 31, F1): a sell sends coins to the
 * provider, which pays the method, so a method added (or switched back on) a minute ago is what a
 * fresh address is to a withdrawal. A method gone or switched off meanwhile: VALIDATION_FAILED.
 * Called before the e-mail code is spent and again under the outflow lock in the order's transaction;
 * the payout reads payoutMethodRefusal, like the other allowlist checks.
 */
export async function assertPayoutMethodAllowlisted(
  db: Db,
  userId: string,
  methodId: string,
  now: Date,
): Promise<void> {
  const hold = await payoutMethodHold(db, userId, methodId, now);
  if (hold === null) return;
  if (hold === 'inactive')
    throw new AppError('VALIDATION_FAILED', 'Choose one of your active payment methods', {
      details: [{ field: 'payoutMethodId', message: 'is not an active payment method', rule: 'enum' }],
    });
  throw new AppError('PAYOUT_METHOD_ALLOWLIST_HOLD', 'This payout method is usable once its hold ends', {
    details: { until: hold.toISOString(), retryAfterSeconds: Math.ceil((hold.getTime() - now.getTime()) / 1000) },
  });
}

/** Why a sell's payout may not go to the method now ('payout_method_hold' / '_inactive'), or null. */
export async function payoutMethodRefusal(
  db: Db,
  userId: string,
  methodId: string | null,
  now: Date,
): Promise<'payout_method_hold' | 'payout_method_inactive' | null> {
  if (methodId === null) return null;
  const hold = await payoutMethodHold(db, userId, methodId, now);
  if (hold === null) return null;
  return hold === 'inactive' ? 'payout_method_inactive' : 'payout_method_hold';
}

/**
 * With the allowlist on: when the method's hold ends, 'inactive' when it is gone, not the user's or
 * off; null when a sell may pay it now (allowlist off, or the hold over).
 */
async function payoutMethodHold(
  db: Db,
  userId: string,
  methodId: string,
  now: Date,
): Promise<Date | 'inactive' | null> {
  if (!(await allowlistState(db, userId, now)).on) return null;
  const method = await db
    .selectFrom('payment_methods')
    .select(['usable_at', 'active'])
    .where('id', '=', methodId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!method?.active) return 'inactive';
  return method.usable_at.getTime() > now.getTime() ? method.usable_at : null;
}
