import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { accountLoginPolicy } from '../auth/throttle-schedule.ts';
import { loginThrottled, type ThrottleStore } from '../auth/throttles.ts';
import type { Sealer } from '../payment-methods/sealing.ts';
import { matchTotpStep } from '../security/totp.ts';
import { acceptOperatorTotpStep, findOperatorById } from './repository.ts';
import { totpBinding } from './service.ts';

/** A session this young was just opened with both factors (sign-in, passkey or enrolment): no new code. */
export const FRESH_SESSION_MS = 5 * 60_000;

/**
 * Adding a passkey gives whoever holds the session a way in that outlives it, so it needs a step-up:
 * a code of the authenticator app (valid once, throttled per operator like a sign-in), unless the
 * session itself was opened within the last 5 minutes (right after enrolment or sign-in). The challenge
 * that follows is bound to this session and lives 5 minutes, so the step-up covers one ceremony.
 */
export async function assertOperatorStepUp(
  deps: { db: Kysely<Database>; sealer: Sealer; throttles: ThrottleStore },
  operatorId: string,
  sessionId: string,
  totpCode: string | undefined,
  at: Date,
): Promise<void> {
  const { db } = deps;
  const session = await db
    .selectFrom('operator_sessions')
    .select('created_at')
    .where('id', '=', sessionId)
    .where('operator_id', '=', operatorId)
    .executeTakeFirst();
  if (totpCode === undefined) {
    if (session && at.getTime() - session.created_at.getTime() < FRESH_SESSION_MS) return;
    throw new AppError('REAUTH_REQUIRED', 'Enter a code of your authenticator app first');
  }
  const key = `operator-step-up:${operatorId}`;
  const charge = await deps.throttles.charge(key, accountLoginPolicy, at);
  if (charge.state === undefined) throw loginThrottled(charge.retryAfterSeconds);
  const operator = await findOperatorById(db, operatorId);
  let step: number | null = null;
  if (operator?.totp_secret_sealed) {
    const { secret } = deps.sealer.open(operator.totp_secret_sealed, totpBinding(operatorId));
    step = secret === undefined ? null : matchTotpStep(secret, totpCode, at);
  }
  if (step === null || !(await acceptOperatorTotpStep(db, operatorId, step)))
    throw new AppError('WRONG_FACTOR_CODE', 'The authenticator code is not right');
  await deps.throttles.clear(key);
}
