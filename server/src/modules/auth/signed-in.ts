import type { AppError } from '../../errors/app-error.ts';
import type { AccountRow } from './accounts-repository.ts';
import { maskEmail } from './rules.ts';
import type { Me } from './schemas.ts';
import type { SessionRow } from './sessions-repository.ts';

/** What a registration or a sign-in answers: the user, and the session the route sets as a cookie. */
export interface SignedIn {
  user: Me;
  token: string;
  session: SessionRow;
  /** The session waits for the second factor (POST /api/auth/login/factor) before any route accepts it. */
  factorRequired?: boolean;
  /** The session waits for the new-device e-mail (POST /api/auth/device/confirm or the mail's link). */
  deviceConfirmationRequired?: boolean;
  /**
   * The authenticator code sent with the password was refused (WRONG_FACTOR_CODE, FACTOR_CODE_USED,
   * FACTOR_THROTTLED): the session is the pending sign-in (factorRequired); the route sets its cookie
   * and answers this error, and the code step may follow.
   */
  factorError?: AppError;
}

export function toMe(account: AccountRow): Me {
  return {
    id: account.user_id,
    username: account.username,
    nickname: account.nickname,
    email: account.email,
    emailMasked: maskEmail(account.email),
    country: account.country.trim(),
    hasFundPassword: account.fund_password_hash !== null,
    createdAt: account.created_at.toISOString(),
  };
}
