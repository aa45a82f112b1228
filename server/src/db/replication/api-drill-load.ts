import { createHash } from 'node:crypto';
import { type Address, getAddress } from 'viem';
import type { App } from '../../app.ts';
import { type Harness, nextIp, requestCode, sessionCookie } from '../../modules/auth/test-helpers.ts';
import { extractCode } from '../../modules/mail/smtp-sink.ts';

/**
 * The load writer of the failover drill (issue 34): `clients` loops over the real HTTP API (app.inject
 * on one or two app instances, as a load balancer would spread them) doing transfers to other users,
 * conversions, ETH withdrawals and sign-ins. Each request carries its idempotency key (a send's and a
 * withdrawal's own key, a conversion's quote id); a failed attempt is retried with THE SAME key until
 * acknowledged, as a client does, and every acknowledgement is logged. The log is what "acknowledged"
 * means when the books and the chain are checked after the failover (api-drill-check.ts).
 */
export type DrillKind = 'send' | 'convert' | 'withdraw' | 'login';

export interface DrillUser {
  id: string;
  email: string;
  username: string;
  password: string;
  /** `did=...`: the browser the user signs in from (known, so no new-device confirmation). */
  device: string;
  cookie: string;
}

export interface DrillAck {
  kind: DrillKind;
  key: string;
  userId: string;
  /** When the attempt that was acknowledged began (a retry's own start), and when it was answered. */
  startedAt: number;
  at: number;
  /** Attempts it took (1: acknowledged at once). */
  attempts: number;
  /** A withdrawal's destination; a sign-in's session cookie. */
  address?: Address;
  cookie?: string;
}

export interface DrillLog {
  acked: DrillAck[];
  /** Attempts that failed (5xx, a dropped connection, a code mail that did not come) and were retried. */
  failedAttempts: number;
  /** Code mails that took longer than MAIL_WAIT_MS (a new code was asked for). */
  slowMails: number;
  /** Quotes lost in the crash (written without waiting for the WAL, convert/README): re-quoted. */
  quotesLost: number;
  /** 4xx answers nobody expected: the drill fails on any. */
  unexpected: string[];
}

/** Fewer retries than this per request means the service never came back: the drill fails. */
const MAX_ATTEMPTS = 400;
const RETRY_PAUSE_MS = 50;
const MAIL_WAIT_MS = 15_000;
const SEND_MINOR = '1000000';
const CONVERT_MINOR = '1000000';
export const WITHDRAW_MINOR = 10n ** 16n;

/** A fresh, checksummed destination per withdrawal: on chain, one transaction per withdrawal is visible. */
export function drillAddress(key: string): Address {
  return getAddress(`0x${createHash('sha256').update(key).digest('hex').slice(0, 40)}`);
}

type Answer = { statusCode: number; json(): unknown; body: string; headers: Record<string, unknown> };
type Request = {
  method: 'GET' | 'POST';
  url: string;
  remoteAddress: string;
  headers: Record<string, string>;
  payload?: Record<string, unknown>;
};
type Outcome = { ok: true; res: Answer } | { ok: false; codeSpent?: boolean; quoteLost?: boolean };

const CODE_SPENT = new Set(['VERIFICATION_CODE_EXPIRED', 'WRONG_VERIFICATION_CODE']);

export function startApiLoad(options: {
  apps: App[];
  /** An app's Harness (the SMTP sink the codes arrive in). */
  harness: (app: App) => Harness;
  users: { send: DrillUser[]; convert: DrillUser[]; withdraw: DrillUser[]; login: DrillUser[] };
}) {
  const log: DrillLog = { acked: [], failedAttempts: 0, slowMails: 0, quotesLost: 0, unexpected: [] };
  let stopping = false;
  let turn = 0;
  const nextApp = () => {
    turn += 1;
    return options.apps[turn % options.apps.length] as App;
  };

  /** One HTTP call; a thrown error (a dead pool) or a 5xx is a failed attempt to retry. */
  async function call(app: App, req: Request): Promise<Outcome> {
    try {
      const res = (await app.inject(req as never)) as unknown as Answer;
      if (res.statusCode < 300) return { ok: true, res };
      if (res.statusCode >= 500) return { ok: false };
      const code = (res.json() as { code?: string }).code ?? '';
      if (CODE_SPENT.has(code)) return { ok: false, codeSpent: true };
      if (res.statusCode === 404 && code === 'NOT_FOUND') return { ok: false, quoteLost: true };
      if (log.unexpected.length < 20) log.unexpected.push(`${res.statusCode} ${res.body.slice(0, 200)}`);
      return { ok: false };
    } catch {
      return { ok: false };
    }
  }

  /** Retries `attempt` (same key) until acknowledged; `fresh()` re-reads what a retry may need (a code). */
  async function untilAcked(
    kind: DrillKind,
    key: string,
    user: DrillUser,
    attempt: (app: App) => Promise<Outcome>,
    ack: { record?: boolean; extra?: (res: Answer) => Partial<DrillAck> } = {},
  ): Promise<Answer | undefined> {
    for (let n = 1; n <= MAX_ATTEMPTS; n += 1) {
      const startedAt = Date.now();
      const out = await attempt(nextApp());
      if (out.ok) {
        const extra = ack.extra?.(out.res) ?? {};
        if (ack.record !== false)
          log.acked.push({ kind, key, userId: user.id, startedAt, at: Date.now(), attempts: n, ...extra });
        return out.res;
      }
      log.failedAttempts += 1;
      if (out.quoteLost) return undefined;
      if (log.unexpected.length > 0) return undefined;
      await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
    }
    log.unexpected.push(`${kind} ${key}: not acknowledged after ${MAX_ATTEMPTS} attempts`);
    return undefined;
  }

  /**
   * A withdraw/transfer code from the user's mail. A failed code request is a failed request (retried);
   * a mail slower than MAIL_WAIT_MS (the outbox worker was on the dead primary) asks again.
   */
  async function code(user: DrillUser, purpose: 'withdraw' | 'transfer'): Promise<string> {
    for (let n = 0; n < MAX_ATTEMPTS; n += 1) {
      const h = options.harness(nextApp());
      const after = h.sink.messages.length;
      let res: Awaited<ReturnType<typeof requestCode>> | undefined;
      try {
        res = await requestCode(h, { purpose, cookie: user.cookie });
      } catch {
        res = undefined;
      }
      if (res?.statusCode !== 202) {
        log.failedAttempts += 1;
        await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
        continue;
      }
      try {
        // Mails without a code (a notice) may come first: the next one to this user with a code.
        for (let from = after; ; ) {
          const mail = await h.sink.waitFor(user.email, { after: from, timeoutMs: MAIL_WAIT_MS });
          const found = extractCode(mail.raw);
          if (found) return found;
          from = h.sink.messages.indexOf(mail) + 1;
        }
      } catch {
        log.slowMails += 1;
      }
    }
    throw new Error(`no ${purpose} code for ${user.email}`);
  }

  /** A request that needs an e-mail code: a spent or superseded code is replaced, the key stays. */
  async function withCode(
    kind: 'send' | 'withdraw',
    key: string,
    user: DrillUser,
    url: string,
    body: Record<string, unknown>,
    extra: Partial<DrillAck> = {},
  ) {
    const purpose = kind === 'send' ? 'transfer' : 'withdraw';
    let emailCode = await code(user, purpose);
    await untilAcked(
      kind,
      key,
      user,
      async (app) => {
        const out = await call(app, {
          method: 'POST',
          url,
          remoteAddress: nextIp(),
          headers: { cookie: user.cookie },
          payload: { ...body, idempotencyKey: key, emailCode },
        });
        if (!out.ok && out.codeSpent) emailCode = await code(user, purpose);
        return out;
      },
      { extra: () => extra },
    );
  }

  const loops = {
    async send(user: DrillUser, c: number, to: DrillUser) {
      for (let i = 0; !stopping; i += 1) {
        const body = { coin: 'USDT', amountMinor: SEND_MINOR, recipientKind: 'email', recipient: to.email };
        await withCode('send', `drill-send-${c}-${i}`, user, '/api/wallet/sends', body);
      }
    },
    async withdraw(user: DrillUser, c: number) {
      for (let i = 0; !stopping; i += 1) {
        const key = `drill-wd-${c}-${i}`;
        const address = drillAddress(key);
        const body = { coin: 'ETH', network: 'ethereum', address, amountMinor: WITHDRAW_MINOR.toString() };
        await withCode('withdraw', key, user, '/api/wallet/withdrawals', body, { address });
      }
    },
    async convert(user: DrillUser) {
      while (!stopping) {
        // The quote is not a booking: only the accept is logged.
        const quote = await untilAcked(
          'convert',
          'quote',
          user,
          (app) =>
            call(app, {
              method: 'POST',
              url: '/api/convert/quotes',
              remoteAddress: nextIp(),
              headers: { cookie: user.cookie },
              payload: { from: 'USDT', to: 'USDC', amountMinor: CONVERT_MINOR },
            }),
          { record: false },
        );
        const quoteId = (quote?.json() as { quoteId?: string } | undefined)?.quoteId;
        if (!quoteId) continue;
        const accepted = await untilAcked('convert', quoteId, user, (app) =>
          call(app, {
            method: 'POST',
            url: `/api/convert/quotes/${quoteId}/accept`,
            remoteAddress: nextIp(),
            headers: { cookie: user.cookie },
          }),
        );
        if (!accepted) log.quotesLost += 1;
        else if ((accepted.json() as { outcome?: string }).outcome !== 'converted')
          log.unexpected.push(`accept ${quoteId}: ${accepted.body.slice(0, 200)}`);
      }
    },
    async login(user: DrillUser, c: number) {
      for (let i = 0; !stopping; i += 1) {
        await untilAcked(
          'login',
          `drill-login-${c}-${i}`,
          user,
          async (app) => {
            const out = await call(app, {
              method: 'POST',
              url: '/api/auth/login',
              remoteAddress: nextIp(),
              headers: { cookie: user.device },
              payload: { identifier: user.username, password: user.password },
            });
            if (out.ok && out.res.statusCode !== 200) {
              log.unexpected.push(`login ${user.username}: ${out.res.statusCode} ${out.res.body.slice(0, 200)}`);
              return { ok: false };
            }
            return out;
          },
          { extra: (res) => ({ cookie: sessionCookie(res) }) },
        );
      }
    },
  };

  const { users } = options;
  const done = Promise.all([
    ...users.send.map((u, c) => loops.send(u, c, users.send[(c + 1) % users.send.length] as DrillUser)),
    ...users.withdraw.map((u, c) => loops.withdraw(u, c)),
    ...users.convert.map((u) => loops.convert(u)),
    ...users.login.map((u, c) => loops.login(u, c)),
  ]);
  return {
    log,
    /** No new request starts; the ones in flight are retried until acknowledged. */
    async stop() {
      stopping = true;
      await done;
    },
  };
}

/**
 * From the kill to the first acknowledgement of an attempt begun after it (such an attempt cannot have
 * been served by the dead primary): how long a user retrying saw the service down.
 */
export function apiUnavailableMs(log: DrillLog, killedAt: number): number {
  const first = log.acked
    .filter((a) => a.startedAt > killedAt)
    .reduce((m, a) => Math.min(m, a.at), Number.POSITIVE_INFINITY);
  return first - killedAt;
}
