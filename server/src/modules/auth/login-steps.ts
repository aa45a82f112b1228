import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { appendAudit } from '../audit/repository.ts';
import { deviceHashOf } from '../security/device-cookie.ts';
import { isKnownDevice } from '../security/devices-repository.ts';
import { secondFactorsOn } from '../security/factors-repository.ts';
import type { SecondFactors } from '../security/factors-service.ts';
import { recordLoginAttempt } from '../security/login-history.ts';
import { completeWithCode } from '../security/login-with-code.ts';
import type { NewDevices } from '../security/new-device.ts';
import { type AccountRow, findAccountByIdentifier } from './accounts-repository.ts';
import type { Client } from './client.ts';
import type { PasswordHasher } from './password-hashing.ts';
import type { Sessions } from './sessions.ts';
import { type SignedIn, toMe } from './signed-in.ts';
import { accountLoginPolicy, ipLoginPolicy } from './throttle-schedule.ts';
import { chargeKeys, loginThrottled, loginThrottleKey, type ThrottleStore } from './throttles.ts';

export interface LoginDeps {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
  sessions: Sessions;
  devices: NewDevices;
  factors: SecondFactors;
  throttles: ThrottleStore;
}

/**
 * POST /api/auth/login, in its steps: the password's proof, then a session that waits for the second
 * factor (or, with the code sent beside the password, the factor step in the same request), or the
 * session the password alone opens.
 */
export async function signIn(
  deps: LoginDeps,
  client: Client,
  input: { identifier: string; password: string; totpCode?: string | undefined },
): Promise<SignedIn> {
  const account = await provePassword(deps, client, input.identifier, input.password);
  // With a second factor the password alone opens nothing: the session waits for the code, in
  // PostgreSQL (any instance may receive the second step), and no route accepts it until then.
  const factorsOn = await secondFactorsOn(deps.db, account.user_id);
  if (factorsOn.any) return startFactorSignIn(deps, client, account, factorsOn.totp ? input.totpCode : undefined);
  return startPasswordSignIn(deps, client, account);
}

/** A user id no account has (the nil UUID): the known-device lookup of an unknown name. */
const NO_USER_ID = '00000000-0000-0000-0000-000000000000';

/** The account whose password this is, or INVALID_CREDENTIALS / LOGIN_THROTTLED (the counters charged first). */
async function provePassword(deps: LoginDeps, client: Client, identifier: string, password: string) {
  const { db, now, hasher, throttles } = deps;
  const ident = identifier.trim().toLowerCase();
  const account = ident === '' ? undefined : await findAccountByIdentifier(db, ident);
  const auditLogin = async (event: 'login_failed' | 'login_throttled', details: Record<string, unknown>) => {
    await appendAudit(db, { event, at: now(), userId: account?.user_id ?? null, ip: client.ip, details });
    // The owner's login history (issue 31) shows attempts on the account, not on unknown names.
    if (account)
      await recordLoginAttempt(db, {
        userId: account.user_id,
        client,
        at: now(),
        method: 'password',
        result: event === 'login_failed' ? 'failed' : 'throttled',
      });
  };
  const plan = await chargePlan(deps, client, ident, account);
  const charged = await chargeKeys(throttles, plan.keys, now());
  if (!('states' in charged)) {
    await auditLogin('login_throttled', { retryAfterSeconds: charged.retryAfterSeconds });
    throw loginThrottled(charged.retryAfterSeconds);
  }
  const { accountKey } = plan;
  const accountCharge = accountKey ? await throttles.charge(accountKey, accountLoginPolicy, now()) : undefined;
  const accountLocked = plan.accountLockBinds && accountCharge !== undefined && accountCharge.state === undefined;
  let ok: boolean;
  try {
    // A locked account is not verified (its guesses stay bounded), at the same cost in time.
    ok =
      account && !accountLocked
        ? await hasher.verify(account.password_hash, password)
        : await hasher.verifyDummy(password);
  } catch (err) {
    await charged.refund(); // never verified (the hashing queue was full)
    if (accountKey && accountCharge?.state) await throttles.refund(accountKey, accountCharge.state);
    throw err;
  }
  if (!account || !ok) {
    await auditLogin(accountLocked ? 'login_throttled' : 'login_failed', {
      ...(account ? {} : { identifier: ident.slice(0, 320) }),
      ...(accountLocked ? { retryAfterSeconds: accountCharge?.retryAfterSeconds } : {}),
    });
    throw new AppError('INVALID_CREDENTIALS', 'Wrong account or password');
  }
  for (const key of plan.clearOnSuccess) await throttles.clear(key);
  await charged.refund(plan.refundOnSuccess);
  // Cleared before the session starts: a store outside the transaction (Redis) cannot roll back with it.
  // The owner's browser takes back only its own charge: the strangers' failures stay counted.
  if (accountKey && plan.accountLockBinds) await throttles.clear(accountKey);
  else if (accountKey && accountCharge?.state) await throttles.refund(accountKey, accountCharge.state);
  return account;
}

/**
 * The throttle keys a password attempt is charged on, before it is verified.
 *
 * From anywhere: the identifier as typed and the client's network, the same for known and unknown
 * names; and the account's own counter (shared by its e-mail and user name, and by every other check
 * of the login password), whose lock answers as a wrong password, so a 429 never tells that an e-mail
 * and a user name are one account.
 *
 * From a browser the account's owner confirmed (its device cookie is a known device of this account),
 * as OWASP's device cookies: that browser's own counter decides, and the account's lock does not bind
 * it, so strangers guessing the name (from anywhere) or sharing the network lock out their own attempts,
 * not the owner on their phone. Its failures are still charged on the account (a stolen cookie's
 * guesses and the strangers' share one budget there), and once its own counter locks, the browser is
 * a stranger again: a stolen device cookie adds five guesses, not a budget of its own. A success there
 * does not clear the strangers' failures. The device is looked up whenever a cookie comes, for an
 * unknown name too (a user id no row has), so the lookup's time does not tell a known name from an
 * unknown one.
 */
async function chargePlan(deps: LoginDeps, client: Client, ident: string, account: AccountRow | undefined) {
  const device = deviceHashOf(client);
  const known = device !== undefined && (await isKnownDevice(deps.db, account?.user_id ?? NO_USER_ID, device));
  if (known && account) {
    const deviceKey = `device:${account.user_id}:${device.toString('hex')}`;
    const lockedFor = await deps.throttles.lockedFor([deviceKey], deps.now());
    if (lockedFor === 0)
      return {
        keys: [{ key: deviceKey, policy: accountLoginPolicy }],
        accountKey: loginThrottleKey(account.user_id),
        accountLockBinds: false,
        clearOnSuccess: [deviceKey],
        refundOnSuccess: [],
      };
  }
  const identKey = `identifier:${ident}`;
  const ipKey = `ip:${clientNetwork(client.ip)}`;
  return {
    keys: [
      { key: identKey, policy: accountLoginPolicy },
      { key: ipKey, policy: ipLoginPolicy },
    ],
    accountKey: account ? loginThrottleKey(account.user_id) : undefined,
    accountLockBinds: true,
    clearOnSuccess: [identKey],
    refundOnSuccess: [ipKey],
  };
}

/**
 * The session that waits for the second factor; with `totpCode` (only passed when the app is on: a code
 * sent for an account without it is ignored, the answer is the 202 as without it) the factor step runs
 * on it in the same request (login-with-code.ts).
 */
async function startFactorSignIn(deps: LoginDeps, client: Client, account: AccountRow, totpCode: string | undefined) {
  const { db, now } = deps;
  const pending = await db.transaction().execute(async (trx) => {
    const { token, session } = await deps.sessions.start(trx, account.user_id, client, { factorPending: true });
    await recordPasswordStep(trx, now(), account, client, session.id, 'login_factor_pending', 'factor_pending');
    return { user: toMe(account), token, session, factorRequired: true };
  });
  const code = totpCode?.trim();
  if (!code) return pending;
  const done = await completeWithCode(deps, client, pending.session, code);
  if ('refused' in done) return { ...pending, factorError: done.refused };
  const { token, session, account: signedInAccount, devicePending } = done;
  return { user: toMe(signedInAccount), token, session, deviceConfirmationRequired: devicePending };
}

/** The password is the whole proof: a browser never seen before still waits for the e-mail. */
async function startPasswordSignIn(deps: LoginDeps, client: Client, account: AccountRow): Promise<SignedIn> {
  const { db, now } = deps;
  const signedIn = await db.transaction().execute(async (trx) => {
    const { token, session, devicePending } = await deps.devices.startSession(trx, account.user_id, client, 'password');
    await recordPasswordStep(
      trx,
      now(),
      account,
      client,
      session.id,
      devicePending ? 'login_device_pending' : 'login_succeeded',
      devicePending ? 'device_pending' : 'succeeded',
    );
    return { user: toMe(account), token, session, deviceConfirmationRequired: devicePending };
  });
  if (signedIn.deviceConfirmationRequired) await deps.devices.mailFor(signedIn.session);
  return signedIn;
}

/** The audit event and the login-history row of a password step, in the step's transaction. */
async function recordPasswordStep(
  trx: Kysely<Database>,
  at: Date,
  account: AccountRow,
  client: Client,
  sessionId: string,
  event: 'login_factor_pending' | 'login_device_pending' | 'login_succeeded',
  result: 'factor_pending' | 'device_pending' | 'succeeded',
): Promise<void> {
  await appendAudit(trx, {
    event,
    at,
    userId: account.user_id,
    ip: client.ip,
    details: { sessionId, method: 'password' },
  });
  await recordLoginAttempt(trx, { userId: account.user_id, client, at, method: 'password', result });
}
