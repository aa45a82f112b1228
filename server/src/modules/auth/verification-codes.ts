import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { clientNetwork } from '../../lib/client-network.ts';
import { appendAudit } from '../audit/repository.ts';
import { enqueueUserMail } from '../mail/anti-phishing.ts';
import { type CodePurpose, type MailContent, type MailLanguage, verificationCodeMail } from '../mail/templates.ts';
import { newFreezeLink } from '../security/freeze.ts';
import { freezeLine, freezeLinkUrl } from '../security/security-mails.ts';
import {
  type CodeRow,
  chargeAttempt,
  consumeCode,
  countCodesSince,
  insertCode,
  lastCodeIssuedAt,
  latestCode,
} from './codes-repository.ts';
import { hashCode, newSalt, newVerificationCode, sameHash } from './secrets.ts';

export interface CodeLimits {
  /** Validity of a code. */
  ttlSeconds: number;
  /** Minimum gap between two codes for the same address and purpose. */
  resendAfterSeconds: number;
  /** Codes per address per hour (all purposes). */
  perAddressPerHour: number;
  /** Codes per client IP per hour. */
  perIpPerHour: number;
  /** Wrong tries that kill a code. */
  maxAttempts: number;
}

export const defaultCodeLimits: CodeLimits = {
  ttlSeconds: 600,
  resendAfterSeconds: 60,
  perAddressPerHour: 10,
  perIpPerHour: 10,
  maxAttempts: 5,
};

export interface IssueCodeInput {
  email: string;
  /** 'new_device' needs `compose` (its mail says more than a code: security/new-device-mail.ts). */
  purpose: CodePurpose | 'new_device';
  userId: string | null;
  ip: string;
  language: MailLanguage;
  /** false: record the code (for the limits) but send nothing — no account to reset. */
  send: boolean;
  /**
   * false: no resend gap (a new sign-in's first mail: each is its own proof of the password); the
   * hourly per-address and per-IP limits still hold. Default true.
   */
  resendGap?: boolean;
  /**
   * The mail to send with the code, instead of the plain verification-code mail. Runs in the code's
   * transaction once the limits passed and the code is stored (`codeId`), so what it writes there
   * (a new-device mail's links) exists only when the mail really goes out.
   */
  compose?: (
    code: string,
    validMinutes: number,
    ctx: { trx: Kysely<Database>; codeId: string; at: Date },
  ) => MailContent | Promise<MailContent>;
}

export interface VerificationCodes {
  readonly limits: CodeLimits;
  /** Checks the limits, stores a new code (hashed) and queues its e-mail, in one transaction; returns its id. */
  issue(input: IssueCodeInput): Promise<string>;
  /**
   * Charges one attempt and compares. Throws VERIFICATION_CODE_EXPIRED when there is no
   * usable code (none sent, used, expired, superseded, or dead after 5 wrong tries) and
   * WRONG_VERIFICATION_CODE (details.attemptsLeft) on a mismatch. Does not consume it. `userId`: only
   * a code that account asked for counts.
   */
  check(email: string, purposes: readonly CodePurpose[], code: string, ip: string, userId?: string): Promise<CodeRow>;
  /** Consumes a checked code inside the transaction of the action it authorises. */
  consume(trx: Kysely<Database>, row: CodeRow): Promise<void>;
}

const expired = () => new AppError('VERIFICATION_CODE_EXPIRED', 'No valid code: request a new one');

const HOUR_MS = 3_600_000;

/** CODE_RATE_LIMITED with the wait until the oldest code of the hour leaves the window. */
function codeRateLimited(message: string, oldest: Date | null, now: Date): AppError {
  const until = (oldest?.getTime() ?? now.getTime()) + HOUR_MS;
  const retryAfterSeconds = Math.max(1, Math.ceil((until - now.getTime()) / 1000));
  return new AppError('CODE_RATE_LIMITED', message, { details: { retryAfterSeconds } });
}

/** Codes that announce money leaving the account: their mail carries a freeze link. */
const INTENT_PURPOSES: ReadonlySet<string> = new Set(['withdraw', 'transfer']);

export function createVerificationCodes(deps: {
  db: Kysely<Database>;
  now: () => Date;
  limits?: Partial<CodeLimits>;
  onMailQueued?: () => void;
  /** The app's public origin: a withdraw/transfer code mail (the notice of intent) carries a freeze link. */
  publicOrigin?: string;
}): VerificationCodes {
  const { db, now } = deps;
  const limits = { ...defaultCodeLimits, ...deps.limits };

  return {
    limits,
    async issue(input) {
      const id = await db.transaction().execute(async (trx) => {
        // Serialise requests for one address so the limits hold under concurrency.
        await sql`select pg_advisory_xact_lock(hashtext(${`code:${input.email}`}))`.execute(trx);
        const at = now();
        const last = input.resendGap === false ? undefined : await lastCodeIssuedAt(trx, input.email, input.purpose);
        if (last) {
          const wait = Math.ceil((last.getTime() + limits.resendAfterSeconds * 1000 - at.getTime()) / 1000);
          if (wait > 0)
            throw new AppError('CODE_RESEND_TOO_SOON', `Wait ${wait} s before asking again`, {
              details: { retryAfterSeconds: wait },
            });
        }
        const hourAgo = new Date(at.getTime() - HOUR_MS);
        const byAddress = await countCodesSince(trx, { email: input.email }, hourAgo);
        if (byAddress.count >= limits.perAddressPerHour) {
          throw codeRateLimited('Too many codes for this address in the last hour', byAddress.oldest, at);
        }
        const byIp = await countCodesSince(trx, { ip: clientNetwork(input.ip) }, hourAgo);
        if (byIp.count >= limits.perIpPerHour) {
          throw codeRateLimited('Too many codes from this network in the last hour', byIp.oldest, at);
        }
        const code = newVerificationCode();
        const salt = newSalt();
        const codeId = await insertCode(
          trx,
          {
            email: input.email,
            purpose: input.purpose,
            userId: input.userId,
            salt,
            codeHash: hashCode(salt, input.purpose, code),
            expiresAt: new Date(at.getTime() + limits.ttlSeconds * 1000),
            // The network, not the address: the hourly count per network reads this column.
            ip: clientNetwork(input.ip),
          },
          at,
        );
        if (input.send) {
          const validMinutes = Math.round(limits.ttlSeconds / 60);
          const mail = input.compose
            ? await input.compose(code, validMinutes, { trx, codeId, at })
            : input.purpose === 'new_device'
              ? undefined
              : verificationCodeMail(input.language, input.purpose, code, validMinutes);
          if (!mail) throw new Error('a new_device code needs its own mail (compose)');
          // The code mail of a withdrawal or send is the owner's only word of it while a thief withdraws:
          // it carries the one-click freeze link, as every security mail does (review of issue 31, F6).
          if (input.userId && deps.publicOrigin && INTENT_PURPOSES.has(input.purpose)) {
            const url = freezeLinkUrl(deps.publicOrigin, await newFreezeLink(trx, input.userId, at));
            mail.text = `${mail.text}\n\n${freezeLine(input.language, url)}\n`;
          }
          await enqueueUserMail(trx, input.userId, input.language, { to: input.email, ...mail }, at);
        }
        await appendAudit(trx, {
          event: 'code_sent',
          at,
          userId: input.userId,
          ip: input.ip,
          details: { purpose: input.purpose, mailed: input.send },
        });
        return codeId;
      });
      if (input.send) deps.onMailQueued?.();
      return id;
    },

    async check(email, purposes, code, ip, userId) {
      const at = now();
      const latest = await latestCode(db, email, purposes, userId);
      // Nothing was asked for: say so, not "expired" (the user has not requested a code yet).
      if (!latest) throw new AppError('VERIFICATION_CODE_NOT_REQUESTED', 'Request a verification code first');
      const charged = await chargeAttempt(db, latest.id, at, limits.maxAttempts);
      if (!charged) throw expired();
      if (!sameHash(hashCode(charged.salt, charged.purpose, code), charged.code_hash)) {
        const attemptsLeft = Math.max(0, limits.maxAttempts - charged.attempts);
        await appendAudit(db, {
          event: 'code_failed',
          at,
          userId: charged.user_id,
          ip,
          details: { purpose: charged.purpose, attemptsLeft },
        });
        throw new AppError('WRONG_VERIFICATION_CODE', 'Wrong verification code', { details: { attemptsLeft } });
      }
      return charged;
    },

    async consume(trx, row) {
      if (!(await consumeCode(trx, row.id, now()))) throw expired();
    },
  };
}
