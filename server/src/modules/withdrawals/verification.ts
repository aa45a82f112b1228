import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { UnauthenticatedError, ValidationError } from '../../errors/app-error.ts';
import { findAccountById } from '../auth/accounts-repository.ts';
import type { Client } from '../auth/client.ts';
import type { CodeRow } from '../auth/codes-repository.ts';
import type { FundPasswordService } from '../auth/fund-password-service.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import type { FactorInput, SecondFactors } from '../security/factors-service.ts';

export interface WalletVerificationInput {
  /** Required when the user has set a fund password. */
  fundPassword?: string | undefined;
  /** The e-mail code: `withdraw` (POST /api/wallet/withdrawals/email-code) or `transfer` (…/sends/email-code). */
  emailCode: string;
  /** Required when the user has a second factor (step-up, ASVS 7.5.3): its code, a recovery code or a passkey. */
  totpCode?: FactorInput['totpCode'];
  recoveryCode?: FactorInput['recoveryCode'];
  passkey?: FactorInput['passkey'];
}

/**
 * The checks in front of a withdrawal or a send: the fund password when one is set, then the
 * e-mail code. Returns the checked code; the caller consumes it in the transaction that moves money,
 * so a code authorises exactly one movement.
 */
export async function verifyWalletAction(
  deps: { db: Kysely<Database>; codes: VerificationCodes; fundPassword: FundPasswordService; factors: SecondFactors },
  client: Client,
  userId: string,
  input: WalletVerificationInput,
  /** A withdrawal takes a `withdraw` code, a transfer to another user a `transfer` code: each e-mail names its action. */
  purpose: 'withdraw' | 'transfer',
): Promise<CodeRow> {
  const account = await findAccountById(deps.db, userId);
  if (!account) throw new UnauthenticatedError('User no longer exists');
  if (account.fund_password_hash !== null) {
    if (!input.fundPassword)
      throw new ValidationError('The fund password is required', [
        { field: 'fundPassword', message: 'is required', rule: 'required' },
      ]);
    await deps.fundPassword.verify(client, userId, input.fundPassword);
  }
  // The e-mail code is a notice of intent, not a factor (ASVS 6.6): with an app on, its code is asked too.
  if (await deps.factors.has(userId)) await deps.factors.verify(client, userId, input, purpose);
  return deps.codes.check(account.email, [purpose], input.emailCode, client.ip);
}
