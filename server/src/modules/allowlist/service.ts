import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import { assertRecentAuth } from '../security/reauth.ts';
import { queueSecurityNotice } from '../security/security-mails.ts';
import { lockOutflows } from '../withdrawals/outflow-budget.ts';
import { ALLOWLIST_HOLD_MAX_MS, ALLOWLIST_HOLD_MIN_MS, ALLOWLIST_HOLD_MS, allowlistState } from './policy.ts';

export interface AllowlistStatus {
  on: boolean;
  /** When a requested turn-off takes effect; null when none is pending. */
  offAt: string | null;
  /** The hold, in hours, a newly trusted entry (or a turn-off) waits now. */
  holdHours: number;
}

export interface TrustResult {
  id: string;
  trusted: boolean;
  usableAt: string | null;
}

export interface AllowlistService {
  status(userId: string): Promise<AllowlistStatus>;
  /** On at once; off only after the hold. Both need a re-authentication within 5 minutes. */
  set(client: Client, userId: string, on: boolean): Promise<AllowlistStatus>;
  /**
   * Trusting starts the entry's hold and mails the owner (with a freeze link); untrusting is at once
   * and silent (it only narrows where coins may go).
   */
  setTrusted(client: Client, userId: string, entryId: string, trusted: boolean): Promise<TrustResult>;
}

export function allowlistHoldMsOf(hours: number | undefined): number {
  const ms = hours === undefined ? ALLOWLIST_HOLD_MS : hours * 3_600_000;
  if (!Number.isFinite(ms) || ms < ALLOWLIST_HOLD_MIN_MS || ms > ALLOWLIST_HOLD_MAX_MS)
    throw new Error(`allowlist hold must be 1..720 hours, got ${hours}`);
  return ms;
}

/**
 * The withdrawal allowlist's settings. Every change runs under the user's outflow lock
 * (withdrawals/outflow-budget.ts), the one a withdrawal or send holds while it re-checks the
 * allowlist, so a toggle and an outflow never interleave, and concurrent toggles apply one by one.
 */
export function createAllowlistService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  holdMs: number;
  /** The app's public origin, for the freeze link of the notices (trust, turn-off). */
  publicOrigin?: string;
}): AllowlistService {
  const { db, now, holdMs, publicOrigin } = deps;
  const holdHours = holdMs / 3_600_000;

  async function status(userId: string): Promise<AllowlistStatus> {
    const state = await allowlistState(db, userId, now());
    return { on: state.on, offAt: state.offAt?.toISOString() ?? null, holdHours };
  }

  return {
    status,

    async set(client, userId, on) {
      await assertRecentAuth(db, client, now());
      await db.transaction().execute(async (trx) => {
        await lockOutflows(trx, userId);
        const at = now();
        const state = await allowlistState(trx, userId, at);
        if (on) {
          if (state.on && state.offAt === null) return;
          // On at once (it only narrows where coins may go); a pending turn-off is cancelled.
          await trx
            .insertInto('withdrawal_allowlists')
            .values({ user_id: userId, enabled_at: at, off_at: null, updated_at: at })
            .onConflict((oc) =>
              oc
                .column('user_id')
                .doUpdateSet(
                  state.on ? { off_at: null, updated_at: at } : { enabled_at: at, off_at: null, updated_at: at },
                ),
            )
            .execute();
          await appendAudit(trx, { event: 'allowlist_enabled', at, userId, ip: client.ip });
          return;
        }
        // Already off, or a turn-off already pending: a repeat neither shortens nor extends it.
        if (!state.on || state.offAt !== null) return;
        const offAt = new Date(at.getTime() + holdMs);
        await trx
          .updateTable('withdrawal_allowlists')
          .set({ off_at: offAt, updated_at: at })
          .where('user_id', '=', userId)
          .execute();
        await appendAudit(trx, {
          event: 'allowlist_off_requested',
          at,
          userId,
          ip: client.ip,
          details: { offAt: offAt.toISOString() },
        });
        // The hold exists so that the owner can react: the owner hears of it, with a freeze link (F5).
        await queueSecurityNotice(trx, userId, 'allowlist_off_requested', at, publicOrigin, offAt.toISOString());
      });
      return status(userId);
    },

    async setTrusted(client, userId, entryId, trusted) {
      return db.transaction().execute(async (trx) => {
        await lockOutflows(trx, userId);
        const at = now();
        const row = await trx
          .selectFrom('address_book')
          .select(['id', 'usable_at', 'network', 'address'])
          .where('id', '=', entryId)
          .where('user_id', '=', userId)
          .executeTakeFirst();
        if (!row) throw new NotFoundError('No such address book entry');
        // Trusting again keeps the running (or finished) hold: a repeat must not restart it.
        if (trusted && row.usable_at !== null) return { id: row.id, trusted, usableAt: row.usable_at.toISOString() };
        const usableAt = trusted ? new Date(at.getTime() + holdMs) : null;
        await trx
          .updateTable('address_book')
          .set({ trusted_at: trusted ? at : null, usable_at: usableAt })
          .where('id', '=', entryId)
          .execute();
        await appendAudit(trx, {
          event: trusted ? 'allowlist_entry_trusted' : 'allowlist_entry_untrusted',
          at,
          userId,
          ip: client.ip,
          details: { entryId, ...(usableAt ? { usableAt: usableAt.toISOString() } : {}) },
        });
        if (usableAt) {
          const detail = `${row.network} ${row.address} (${usableAt.toISOString()})`;
          await queueSecurityNotice(trx, userId, 'allowlist_entry_trusted', at, publicOrigin, detail);
        }
        return { id: row.id, trusted, usableAt: usableAt?.toISOString() ?? null };
      });
    },
  };
}
