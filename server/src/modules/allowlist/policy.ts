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
