import { AppError } from '../../errors/app-error.ts';
import type { AccountRow } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import type { SessionRow } from '../auth/sessions-repository.ts';
import type { ThrottleStore } from '../auth/throttles.ts';
import { completeFactorLogin } from './login-factor.ts';
import type { TotpLoginDeps } from './login-factor-totp.ts';

/** The refusals of a code that leave the pending sign-in usable: the usual code step may follow. */
const FACTOR_REFUSALS: ReadonlySet<string> = new Set(['WRONG_FACTOR_CODE', 'FACTOR_CODE_USED', 'FACTOR_THROTTLED']);

export type CodeSignIn =
  | { token: string; session: SessionRow; account: AccountRow; devicePending: boolean }
  | { refused: AppError };

/**
 * A returning device's sign-in with the authenticator code sent beside the password (POST
 * /api/auth/login with `totpCode`): one request where the first-device flow takes two. On this
 * machine any request costs ~9 ms against a ~55 ms password sign-in, so the second request alone
 * put "password + TOTP" ~24 % over the password (issue 31's bench asks at most 10 %).
 *
 * Called only after the password was proved, exactly as without a code (a wrong password never
 * gets here: the code is no oracle), for an account whose app is on, with the pending sign-in that
 * proof just started. The code goes through the factor route's own step (completeFactorLogin: the
 * throttle row lock, the charge with the verdict, a step accepted once, the pending sign-in ended and
 * a new session issued, the audit and history rows, new-device confirmation), nothing of it copied.
 * A refused code leaves the pending sign-in as the 202 would: its cookie is set, the error answers,
 * and the code step (POST /api/auth/login/factor) can follow on it.
 */
export async function completeWithCode(
  deps: TotpLoginDeps & { throttles: ThrottleStore },
  client: Client,
  pending: SessionRow,
  totpCode: string,
): Promise<CodeSignIn> {
  try {
    // Only the app's code: recovery codes are not taken on this path (the schema's 6 digits).
    return await completeFactorLogin(deps, client, pending, { totpCode });
  } catch (err) {
    if (err instanceof AppError && FACTOR_REFUSALS.has(err.code)) return { refused: err };
    throw err;
  }
}
