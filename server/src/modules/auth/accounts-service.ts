import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, UnauthenticatedError } from '../../errors/app-error.ts';
import { appendAudit } from '../audit/repository.ts';
import type { CodePurpose, MailLanguage } from '../mail/templates.ts';
import { inviterOf, recordInvitation } from '../rewards/invites.ts';
import type { SecondFactors } from '../security/factors-service.ts';
import type { NewDevices } from '../security/new-device.ts';
import {
  type AccountRow,
  emailTaken,
  findAccountByEmail,
  findAccountById,
  insertAccount,
  usernameTaken,
} from './accounts-repository.ts';
import type { Client } from './client.ts';
import { signIn } from './login-steps.ts';
import { createPasswordChanges, type PasswordChanges } from './password-changes.ts';
import type { PasswordHasher } from './password-hashing.ts';
import {
  assertNewPassword,
  checkCode,
  checkEmail,
  FieldChecks,
  isValidCountry,
  isValidUsername,
  NICKNAME_MAX,
  normalizeEmail,
} from './rules.ts';
import type { Me } from './schemas.ts';
import type { Sessions } from './sessions.ts';
import { revokeSession } from './sessions-repository.ts';
import type { SessionsEndedHook } from './sessions-service.ts';
import { type SignedIn, toMe } from './signed-in.ts';
import type { ThrottleStore } from './throttles.ts';
import type { VerificationCodes } from './verification-codes.ts';

export { type SignedIn, toMe } from './signed-in.ts';

const UNIQUE_VIOLATION = '23505';

export interface RegisterInput {
  username: string;
  nickname?: string | null | undefined;
  country: string;
  password: string;
  confirmPassword: string;
  email: string;
  code: string;
  agreementAccepted: boolean;
  inviteCode?: string | null | undefined;
}

export interface AccountsService extends PasswordChanges {
  sendCode(
    client: Client,
    input: { email?: string | undefined; purpose: CodePurpose; language: MailLanguage },
  ): Promise<void>;
  register(client: Client, input: RegisterInput): Promise<SignedIn>;
  /** `totpCode`: a returning device's authenticator code, checked only after a right password (login-with-code.ts). */
  login(
    client: Client,
    input: { identifier: string; password: string; totpCode?: string | undefined },
  ): Promise<SignedIn>;
  logout(client: Client): Promise<void>;
  me(userId: string): Promise<Me>;
}

const loggedInPurposes: ReadonlySet<CodePurpose> = new Set([
  'change_password',
  'fund_password',
  'withdraw',
  'transfer',
  'unfreeze',
]);

export function createAccountsService(deps: {
  db: Kysely<Database>;
  now: () => Date;
  hasher: PasswordHasher;
  sessions: Sessions;
  devices: NewDevices;
  factors: SecondFactors;
  codes: VerificationCodes;
  throttles: ThrottleStore;
  onSessionsEnded: SessionsEndedHook;
  publicOrigin?: string;
  onMailQueued?: () => void;
}): AccountsService {
  const { db, now, hasher, sessions, codes, throttles, onSessionsEnded } = deps;
  const loginDeps = { db, now, hasher, sessions, devices: deps.devices, factors: deps.factors, throttles };

  async function accountOf(userId: string): Promise<AccountRow> {
    const account = await findAccountById(db, userId);
    if (!account) throw new UnauthenticatedError('User no longer exists');
    return account;
  }

  return {
    ...createPasswordChanges({
      db,
      now,
      hasher,
      codes,
      throttles,
      accountOf,
      onSessionsEnded,
      ...(deps.publicOrigin ? { publicOrigin: deps.publicOrigin } : {}),
      ...(deps.onMailQueued ? { onMailQueued: deps.onMailQueued } : {}),
    }),

    async sendCode(client, { email, purpose, language }) {
      // Its code goes to an address the account does not have yet: only security/email-change.ts issues it.
      if (purpose === 'change_email') throw new AppError('VALIDATION_FAILED', 'Use /api/me/security/email/code');
      if (loggedInPurposes.has(purpose)) {
        if (client.userId === null) throw new UnauthenticatedError();
        const account = await accountOf(client.userId);
        await codes.issue({
          email: account.email,
          purpose,
          userId: account.user_id,
          ip: client.ip,
          language,
          send: true,
        });
        return;
      }
      const address = normalizeEmail(email ?? '');
      const checks = new FieldChecks().check(address !== '', 'email', 'required', 'is required');
      if (address !== '') checkEmail(checks, address);
      checks.throwIfAny();
      if (purpose === 'register') {
        // A taken address is recorded like a code (never mailed) before the answer says so: asking
        // about addresses counts in the per-address and per-IP code limits like asking for codes.
        const taken = await emailTaken(db, address);
        await codes
          .issue({ email: address, purpose, userId: null, ip: client.ip, language, send: !taken })
          .catch((err: unknown) => {
            // The resend cooldown spaces out mail; none goes to a taken address, and its answer is the
            // same either way. The hourly per-address and per-IP limits (CODE_RATE_LIMITED) still refuse.
            if (!(taken && err instanceof AppError && err.code === 'CODE_RESEND_TOO_SOON')) throw err;
          });
        if (taken) throw new AppError('EMAIL_EXISTS', 'This e-mail address is already registered');
        return;
      }
      // reset_password: same answer whether or not the account exists; mail only if it does.
      const account = await findAccountByEmail(db, address);
      await codes.issue({
        email: address,
        purpose,
        userId: account?.user_id ?? null,
        ip: client.ip,
        language,
        send: account !== undefined,
      });
    },

    async register(client, input) {
      const email = normalizeEmail(input.email);
      const username = input.username.trim();
      const nickname = input.nickname?.trim() || null;
      const country = input.country.trim().toUpperCase();
      const checks = new FieldChecks()
        .check(username.length >= 3 && username.length <= 20, 'username', 'length', 'must be 3-20 characters')
        .check(
          username.length < 3 || username.length > 20 || isValidUsername(username),
          'username',
          'charset',
          'may contain only letters, digits and _',
        )
        .check(
          nickname === null || nickname.length <= NICKNAME_MAX,
          'nickname',
          'length',
          `must be at most ${NICKNAME_MAX} characters`,
        )
        .check(isValidCountry(country), 'country', 'format', 'must be an ISO 3166-1 alpha-2 code');
      checkEmail(checks, email);
      checkCode(checks, input.code);
      checks.throwIfAny();
      if (input.agreementAccepted !== true)
        throw new AppError('AGREEMENT_REQUIRED', 'The user agreement must be accepted');
      assertNewPassword(input.password, input.confirmPassword, { username, email });
      // The code first (its tries are limited): without it, nothing tells whether a name or address is taken.
      const code = await codes.check(email, ['register'], input.code, client.ip);
      if (await emailTaken(db, email)) throw new AppError('EMAIL_EXISTS', 'This e-mail address is already registered');
      if (await usernameTaken(db, username)) throw new AppError('USERNAME_EXISTS', 'This user name is taken');
      // Checked before the code is spent: a wrong invite code changes nothing.
      const inviterId = input.inviteCode?.trim() ? await inviterOf(db, input.inviteCode) : null;
      const passwordHash = await hasher.hash(input.password);
      try {
        return await db.transaction().execute(async (trx) => {
          await codes.consume(trx, code);
          const account = await insertAccount(trx, { username, email, nickname, country, passwordHash }, now());
          if (inviterId) await recordInvitation(trx, { inviteeId: account.user_id, inviterId, at: now() });
          const { token, session } = await sessions.start(trx, account.user_id, client);
          // The browser that created the account is its first known device.
          await deps.devices.remember(trx, account.user_id, client);
          await appendAudit(trx, {
            event: 'registered',
            at: now(),
            userId: account.user_id,
            ip: client.ip,
            details: { sessionId: session.id },
          });
          return { user: toMe(account), token, session };
        });
      } catch (err) {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION) {
          const constraint = (err as { constraint?: string }).constraint ?? '';
          if (constraint.includes('email'))
            throw new AppError('EMAIL_EXISTS', 'This e-mail address is already registered');
          throw new AppError('USERNAME_EXISTS', 'This user name is taken');
        }
        throw err;
      }
    },

    login: (client, input) => signIn(loginDeps, client, input),

    async logout(client) {
      const { userId, sessionId } = client;
      if (userId === null || sessionId === null) return;
      await db.transaction().execute(async (trx) => {
        await revokeSession(trx, userId, sessionId, now());
        await appendAudit(trx, {
          event: 'logout',
          at: now(),
          userId,
          ip: client.ip,
          details: { sessionId },
        });
      });
    },

    async me(userId) {
      return toMe(await accountOf(userId));
    },
  };
}
