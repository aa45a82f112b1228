import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, UnauthenticatedError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import { findAccountById } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import { lockOutflows } from '../withdrawals/outflow-budget.ts';
import { deviceHashOf } from './device-cookie.ts';
import type { FactorInput } from './factors-service.ts';
import { type FreezeVia, freezeAccount, freezeLinkUser, frozenAndStill, startThaw } from './freeze.ts';
import { freezeState } from './freeze-state.ts';
import type { Reauth } from './reauth.ts';
import { queueSecurityNotice } from './security-mails.ts';

export interface FreezeStatus {
  frozen: boolean;
  frozenAt: string | null;
  /** When the unfreeze under way takes effect; null when none is asked for. */
  thawsAt: string | null;
}

export interface UnfreezeInput extends FactorInput {
  password: string;
  emailCode: string;
}

export interface FreezeService {
  status(userId: string): Promise<FreezeStatus>;
  /** Freezes the signed-in user's account (ends every session, the caller's too). */
  freeze(client: Client, userId: string): Promise<void>;
  /** The mail link: freezes the account the token names; false for an unknown token. */
  freezeByLink(client: Client, token: string): Promise<boolean>;
  /** Password, factor (if on) and an `unfreeze` e-mail code: the thaw starts, ending after the hold. */
  unfreeze(client: Client, userId: string, input: UnfreezeInput): Promise<FreezeStatus>;
}

export function createFreezeService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  codes: VerificationCodes;
  reauth: Reauth;
  publicOrigin: string;
  unfreezeHoldMs: number;
  onMailQueued?: () => void;
  /**
   * Runs in the freeze's transaction, after the outflow lock (app.ts: pending sells end, unsigned sell
   * payouts are rejected), as work in flight ends with the sessions on a password change.
   */
  onFrozen?: (trx: Transaction<Database>, userId: string, at: Date) => Promise<unknown>;
}): FreezeService {
  const { db, now } = deps;

  async function status(userId: string): Promise<FreezeStatus> {
    const state = await freezeState(db, userId, now());
    return {
      frozen: state.frozen,
      frozenAt: state.frozenAt?.toISOString() ?? null,
      thawsAt: state.thawsAt?.toISOString() ?? null,
    };
  }

  async function freeze(userId: string, via: FreezeVia, client: Client): Promise<void> {
    const { ip } = client;
    const keepDevice = deviceHashOf(client);
    await db.transaction().execute(async (trx) => {
      const at = now();
      await lockOutflows(trx, userId);
      // Frozen already, no unfreeze under way: nothing to stop, so no sessions end and no mail goes
      // (a leaked link replayed must not be a mail bomb or a session killer; review 31, F4). Frozen
      // with an unfreeze under way: freezing again cancels it, and says so once.
      if (await frozenAndStill(trx, userId)) return;
      await freezeAccount(trx, { userId, via, ip, now: at, keepDevice });
      await deps.onFrozen?.(trx, userId, at);
      await queueSecurityNotice(trx, userId, 'account_frozen', at);
    });
    deps.onMailQueued?.();
  }

  return {
    status,
    freeze: (client, userId) => freeze(userId, 'settings', client),
    async freezeByLink(client, token) {
      const userId = await freezeLinkUser(db, token, now());
      if (!userId) return false;
      await freeze(userId, 'mail_link', client);
      return true;
    },
    async unfreeze(client, userId, input) {
      const before = await freezeState(db, userId, now());
      if (!before.frozen) throw new AppError('ACCOUNT_NOT_FROZEN', 'The account is not frozen');
      // Compliance's freeze is lifted by compliance only (ops-users/actions.ts), never by the owner.
      if (before.byOperator)
        throw new AppError('ACCOUNT_FROZEN_BY_OPERATOR', 'Compliance froze the account; the owner cannot lift it');
      // Password and factor, charged on the login throttle as a sign-in (reauth.ts).
      await deps.reauth.reauthenticate(client, userId, input, { passwordAlways: true });
      const account = await findAccountById(db, userId);
      if (!account) throw new UnauthenticatedError('User no longer exists');
      const code = await deps.codes.check(account.email, ['unfreeze'], input.emailCode, client.ip);
      await db.transaction().execute(async (trx) => {
        const at = now();
        const thawsAt = await startThaw(trx, userId, at, deps.unfreezeHoldMs);
        // An unfreeze already under way keeps its end; the code is left for nothing else.
        if (!thawsAt) return;
        await deps.codes.consume(trx, code);
        await appendAudit(trx, {
          event: 'unfreeze_requested',
          at,
          userId,
          ip: client.ip,
          details: { thawsAt: thawsAt.toISOString() },
        });
        // The owner hears of it with a link that freezes again (and so cancels this thaw).
        await queueSecurityNotice(trx, userId, 'unfreeze_requested', at, deps.publicOrigin);
      });
      deps.onMailQueued?.();
      return status(userId);
    },
  };
}
