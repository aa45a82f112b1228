import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError, UnauthenticatedError } from '../../errors/app-error.ts';
import { placeFromIp } from '../../lib/ip-place.ts';
import { appendAudit } from '../audit/repository.ts';
import type { Client } from '../auth/client.ts';
import { chargeAttempt, consumeCode } from '../auth/codes-repository.ts';
import { maskEmail } from '../auth/rules.ts';
import { hashCode, hashToken, sameHash } from '../auth/secrets.ts';
import type { Sessions } from '../auth/sessions.ts';
import { lockUserSessions, revokeBeyondNewest, revokeSession, type SessionRow } from '../auth/sessions-repository.ts';
import type { VerificationCodes } from '../auth/verification-codes.ts';
import { deviceHash, deviceHashOf } from './device-cookie.ts';
import {
  approveConfirmation,
  chargeConfirmationAttempt,
  confirmationAttemptsSince,
  confirmationByLink,
  confirmationOfSession,
  type DeviceConfirmationRow,
  insertConfirmation,
  rememberDevice,
  setConfirmationMail,
  touchKnownDevice,
} from './devices-repository.ts';
import { newFreezeLink } from './freeze.ts';
import { deviceOf, type LoginMethod, recordLoginAttempt } from './login-history.ts';
import { deviceLinkUrl, newDeviceMail } from './new-device-mail.ts';
import { freezeLinkUrl, mailTarget } from './security-mails.ts';

const PURPOSE = 'new_device';
const LINK_PATTERN = /^[A-Za-z0-9_-]{43}$/;
const DAY_MS = 86_400_000;
/** Code guesses a day over all of a user's waiting sign-ins (four sign-ins' worth). */
export const DAILY_CODE_GUESSES = 20;

export interface DeviceStatus {
  state: 'pending' | 'none';
  emailMasked: string | null;
  expiresAt: string | null;
  /** False when the first mail was refused by the code limits: ask for it again (resend). */
  mailed: boolean;
}

export interface NewDevices {
  /**
   * In the sign-in's transaction, once the user is proved (password, factor, passkey): a usable session
   * for a browser the user confirmed before, else one waiting for the e-mail (device_pending).
   */
  startSession(
    trx: Kysely<Database>,
    userId: string,
    client: Client,
    method: LoginMethod,
  ): Promise<{ token: string; session: SessionRow; devicePending: boolean }>;
  /** Registration: the browser that created the account is known from the start. */
  remember(trx: Kysely<Database>, userId: string, client: Client): Promise<void>;
  /** After the sign-in committed: mails the code and links for a pending session (limits permitting). */
  mailFor(session: SessionRow): Promise<void>;
  /** A new mail (new code, new link); the code limits space them (CODE_RESEND_TOO_SOON, CODE_RATE_LIMITED). */
  resend(pending: SessionRow): Promise<void>;
  confirmByCode(client: Client, pending: SessionRow, code: string): Promise<void>;
  /** The mail's approve link, opened anywhere; false for an unknown, stale or spent link. */
  confirmByLink(client: Client, token: string): Promise<boolean>;
  status(pending: SessionRow | undefined): Promise<DeviceStatus>;
}

export function createNewDevices(deps: {
  db: Kysely<Database>;
  now: () => Date;
  sessions: Sessions;
  codes: VerificationCodes;
  publicOrigin: string;
}): NewDevices {
  const { db, now, sessions, codes } = deps;

  /** Makes the pending session usable, remembers the browser and starts the outflow hold, at once. */
  async function approve(
    trx: Kysely<Database>,
    confirmation: DeviceConfirmationRow,
    session: SessionRow,
    via: 'code' | 'link',
    ip: string,
  ): Promise<void> {
    const at = now();
    const userId = confirmation.user_id;
    // First, before the confirmation's session row and the known device: the order of every sign-in (review L1).
    await lockUserSessions(trx, userId);
    if (!(await approveConfirmation(trx, confirmation.session_id, at, sessions.options.absoluteHours * 3_600_000)))
      throw new UnauthenticatedError('This sign-in ended (expired, signed out or frozen); sign in again');
    await rememberDevice(trx, { userId, deviceHash: confirmation.device_hash, userAgent: session.user_agent }, at);
    await revokeBeyondNewest(trx, userId, session.id, sessions.options.maxPerUser, at);
    await appendAudit(trx, {
      event: 'new_device_confirmed',
      at,
      userId,
      ip,
      details: { sessionId: session.id, via, method: confirmation.method },
    });
    await recordLoginAttempt(trx, {
      userId,
      client: { ip: session.ip ?? ip, userAgent: session.user_agent },
      at,
      method: confirmation.method,
      result: 'device_confirmed',
    });
  }

  /**
   * `first`: the sign-in's own mail, not held by the resend gap (a resend is). Nothing is written
   * before the code limits pass: a refused resend or sign-in mints no freeze link (which could push
   * the links of mails already sent out) and leaves the code and link of the last mail working. The
   * new link, code and freeze link are written in the code's own transaction, with the mail.
   */
  async function sendMail(session: SessionRow, first: boolean): Promise<void> {
    const target = await mailTarget(db, session.user_id);
    if (!target) return;
    const linkToken = randomBytes(32).toString('base64url');
    const facts = {
      device: deviceOf(session.user_agent),
      place: session.ip ? placeFromIp(session.ip) : { country: null, region: null, city: null },
      ip: session.ip,
      at: session.created_at,
    };
    await codes.issue({
      email: target.email,
      purpose: PURPOSE,
      userId: session.user_id,
      ip: session.ip ?? '0.0.0.0',
      language: target.language,
      send: true,
      resendGap: !first,
      compose: async (code, validMinutes, { trx, codeId, at }) => {
        // The old mail's link and code stop working: only the newest mail approves.
        await setConfirmationMail(trx, session.id, { linkHash: hashToken(linkToken), codeId });
        const freezeToken = await newFreezeLink(trx, session.user_id, at);
        return newDeviceMail(target.language, facts, {
          code,
          validMinutes,
          approveUrl: deviceLinkUrl(deps.publicOrigin, linkToken),
          freezeUrl: freezeLinkUrl(deps.publicOrigin, freezeToken),
        });
      },
    });
  }

  /**
   * At most DAILY_CODE_GUESSES code guesses a day over all of a user's waiting sign-ins: each new
   * sign-in has its own 5, and the code limits allow 10 mails an hour, so a thief with the password
   * alone could otherwise guess 50 times an hour. The owner's mail link still works past it.
   */
  async function refusePastDailyGuesses(userId: string): Promise<void> {
    const at = now();
    const { attempts, oldest } = await confirmationAttemptsSince(db, userId, new Date(at.getTime() - DAY_MS));
    if (attempts < DAILY_CODE_GUESSES) return;
    const retryAfterSeconds = Math.max(1, Math.ceil(((oldest ?? at).getTime() + DAY_MS - at.getTime()) / 1000));
    throw new AppError('CODE_RATE_LIMITED', 'Too many codes tried today: use the link in the mail', {
      details: { retryAfterSeconds },
    });
  }

  return {
    async startSession(trx, userId, client, method) {
      // The user's sessions lock before the known device's row: the TOTP step (login-factor-totp.ts) and
      // approve hold them in this order; the other one deadlocked two sign-ins from one browser (review L1).
      await lockUserSessions(trx, userId);
      const at = now();
      const hash = deviceHashOf(client);
      const known = hash !== undefined && (await touchKnownDevice(trx, userId, hash, at));
      const { token, session } = await sessions.start(trx, userId, client, { devicePending: !known });
      if (!known) {
        // No device cookie at all (a client that keeps none) is an unknown device every time.
        await insertConfirmation(
          trx,
          {
            sessionId: session.id,
            userId,
            deviceHash: hash ?? deviceHash(randomBytes(32).toString('base64url')),
            // Replaced by the mail's own link before anything is sent (sendMail).
            linkHash: hashToken(randomBytes(32).toString('base64url')),
            expiresAt: session.expires_at,
            method,
          },
          at,
        );
      }
      return { token, session, devicePending: !known };
    },

    async remember(trx, userId, client) {
      if (client.deviceId === undefined) return;
      await rememberDevice(
        trx,
        { userId, deviceHash: deviceHash(client.deviceId), userAgent: client.userAgent },
        now(),
      );
    },

    async mailFor(session) {
      try {
        await sendMail(session, true);
      } catch (err) {
        // The sign-in stands (pending); the screen's "send again" asks once the limits allow.
        if (!(err instanceof AppError)) throw err;
      }
    },

    resend: (pending) => sendMail(pending, false),

    async confirmByCode(client, pending, code) {
      const confirmation = await confirmationOfSession(db, pending.id);
      if (!confirmation?.code_id) throw new AppError('VERIFICATION_CODE_NOT_REQUESTED', 'Request a code first');
      await refusePastDailyGuesses(pending.user_id);
      // One attempt charged atomically on the code's row: concurrent guesses never pass the limit.
      const charged = await chargeAttempt(db, confirmation.code_id, now(), codes.limits.maxAttempts);
      if (!charged) throw new AppError('VERIFICATION_CODE_EXPIRED', 'No valid code: request a new one');
      // The sign-in's own budget too, over all its mails: a resend buys no fresh guesses. Spent, the
      // sign-in ends (sign in again: each new one needs the password and a mail within the code limits).
      const guesses = await chargeConfirmationAttempt(db, pending.id, codes.limits.maxAttempts);
      if (guesses === undefined) {
        await revokeSession(db, pending.user_id, pending.id, now());
        throw new UnauthenticatedError('Too many wrong codes for this sign-in: sign in again');
      }
      if (!/^\d{6}$/.test(code) || !sameHash(hashCode(charged.salt, PURPOSE, code), charged.code_hash)) {
        const attemptsLeft = Math.max(0, codes.limits.maxAttempts - Math.max(charged.attempts, guesses));
        // The last guess spent: the sign-in ends now (a resend could not revive it).
        if (attemptsLeft === 0) await revokeSession(db, pending.user_id, pending.id, now());
        await appendAudit(db, {
          event: 'code_failed',
          at: now(),
          userId: pending.user_id,
          ip: client.ip,
          details: { purpose: PURPOSE, attemptsLeft },
        });
        throw new AppError('WRONG_VERIFICATION_CODE', 'Wrong verification code', { details: { attemptsLeft } });
      }
      await db.transaction().execute(async (trx) => {
        await lockUserSessions(trx, pending.user_id); // first in the transaction (approve's order)
        if (!(await consumeCode(trx, charged.id, now())))
          throw new AppError('VERIFICATION_CODE_EXPIRED', 'No valid code: request a new one');
        await approve(trx, confirmation, pending, 'code', client.ip);
      });
    },

    async confirmByLink(client, token) {
      if (!LINK_PATTERN.test(token)) return false;
      const confirmation = await confirmationByLink(db, hashToken(token));
      if (!confirmation || confirmation.confirmed_at !== null || confirmation.expires_at <= now()) return false;
      const session = await db
        .selectFrom('sessions')
        .selectAll()
        .where('id', '=', confirmation.session_id)
        .executeTakeFirst();
      if (!session) return false;
      try {
        await db.transaction().execute((trx) => approve(trx, confirmation, session, 'link', client.ip));
      } catch (err) {
        if (err instanceof AppError) return false;
        throw err;
      }
      return true;
    },

    async status(pending) {
      if (!pending) return { state: 'none', emailMasked: null, expiresAt: null, mailed: false };
      const [target, confirmation] = await Promise.all([
        mailTarget(db, pending.user_id),
        confirmationOfSession(db, pending.id),
      ]);
      return {
        state: 'pending',
        emailMasked: target ? maskEmail(target.email) : null,
        expiresAt: pending.expires_at.toISOString(),
        mailed: confirmation?.code_id != null,
      };
    },
  };
}
