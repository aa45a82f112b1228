import type { Kysely } from 'kysely';
import { afterAll, beforeAll } from 'vitest';
import { type App, type AppDeps, buildApp } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import { testConsoleSurface } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { extractCode, type SmtpSink, startSmtpSink } from '../mail/smtp-sink.ts';
import { testUsdPrices } from '../prices/test-prices.ts';

/** A clock the tests move. */
export interface TestClock {
  now: () => Date;
  advance(ms: number): void;
  set(at: Date): void;
}

export function createClock(start = new Date('2030-01-02T03:04:05.000Z')): TestClock {
  let t = start.getTime();
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
    set: (at) => {
      t = at.getTime();
    },
  };
}

let ipCounter = 0;
/** A fresh client IP per call, so the per-IP limits of one test do not leak into the next. */
export function nextIp(): string {
  ipCounter += 1;
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`;
}

export interface Harness {
  readonly app: App;
  readonly db: Kysely<Database>;
  /** The test database's URL (for a second app instance or a LISTEN connection). */
  readonly databaseUrl: string;
  readonly sink: SmtpSink;
  readonly clock: TestClock;
}

export const STRONG_PASSWORD = 'Tr1cky-Pass!';

/**
 * Real PostgreSQL (fresh database per file), a real SMTP sink on loopback, the real
 * cookie sessions and a movable clock.
 */
export function useAuthHarness(overrides: Partial<AppDeps> = {}): Harness {
  const database = useTestDatabase();
  let app: App | undefined;
  let sink: SmtpSink | undefined;
  const clock = createClock();
  beforeAll(async () => {
    sink = await startSmtpSink();
    app = buildApp({
      db: database.db,
      now: clock.now,
      rateLimit: { max: 100_000, windowMs: 60_000 },
      notifications: { databaseUrl: database.url },
      console: testConsoleSurface,
      ...overrides,
      // Fixed USD prices value outflows in their review budget (a test may give its own).
      wallet: { prices: testUsdPrices, ...overrides.wallet },
      mail: { smtpUrl: sink.url, pollIntervalMs: 50, ...overrides.mail },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await sink?.close();
  });
  const need = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`${name} not ready (use inside tests or hooks)`);
    return value;
  };
  return {
    get app() {
      return need(app, 'app');
    },
    get db() {
      return database.db;
    },
    get databaseUrl() {
      return database.url;
    },
    get sink() {
      return need(sink, 'sink');
    },
    clock,
  };
}

/** `sid=...` from a response's Set-Cookie, for the Cookie header of the next request. */
export function sessionCookie(response: { headers: Record<string, unknown> }): string {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : [header];
  for (const c of all) {
    const match = typeof c === 'string' ? /^((?:__Host-)?sid)=([^;]+)/.exec(c) : null;
    if (match && match[2] !== '') return `${match[1]}=${match[2]}`;
  }
  throw new Error(`no session cookie in ${JSON.stringify(header)}`);
}

export interface CodeRequest {
  email?: string;
  purpose: string;
  cookie?: string;
  ip?: string;
  language?: string;
  acceptLanguage?: string;
}

export async function requestCode(h: Harness, req: CodeRequest) {
  return h.app.inject({
    method: 'POST',
    url: '/api/auth/codes',
    remoteAddress: req.ip ?? nextIp(),
    headers: {
      ...(req.cookie ? { cookie: req.cookie } : {}),
      ...(req.acceptLanguage ? { 'accept-language': req.acceptLanguage } : {}),
    },
    payload: {
      ...(req.email === undefined ? {} : { email: req.email }),
      purpose: req.purpose,
      ...(req.language ? { language: req.language } : {}),
    },
  });
}

/** Requests a code and reads it from the mail the SMTP sink receives. */
export async function receiveCode(h: Harness, req: CodeRequest & { to?: string }): Promise<string> {
  const before = h.sink.messages.length;
  const res = await requestCode(h, req);
  if (res.statusCode !== 202) throw new Error(`code request failed: ${res.statusCode} ${res.body}`);
  // A notice queued earlier (a security alert, say) may be delivered after the request: skip mails
  // without a code, the code mail follows (the outbox delivers asynchronously).
  let after = before;
  for (let skipped = 0; skipped < 5; skipped++) {
    const mail = await h.sink.waitFor(req.to ?? req.email ?? '', { after });
    const code = extractCode(mail.raw);
    if (code) return code;
    after = h.sink.messages.indexOf(mail) + 1;
  }
  throw new Error(`no code in the next 5 mails to ${req.to ?? req.email}`);
}

let userCounter = 0;
export function uniqueUser(prefix = 'user') {
  userCounter += 1;
  const name = `${prefix}_${process.pid % 1000}_${userCounter}`;
  return { username: name, email: `${name.toLowerCase()}@example.com` };
}

/** Registers a new user through the API; returns its cookie and profile. */
export async function registerUser(h: Harness, options: { password?: string; ip?: string; inviteCode?: string } = {}) {
  const { username, email } = uniqueUser();
  const code = await receiveCode(h, { email, purpose: 'register' });
  const password = options.password ?? STRONG_PASSWORD;
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: options.ip ?? nextIp(),
    payload: {
      username,
      country: 'CN',
      password,
      confirmPassword: password,
      email,
      code,
      agreementAccepted: true,
      ...(options.inviteCode === undefined ? {} : { inviteCode: options.inviteCode }),
    },
  });
  if (res.statusCode !== 201) throw new Error(`register failed: ${res.statusCode} ${res.body}`);
  return { username, email, password, cookie: sessionCookie(res), user: res.json().user as { id: string } };
}

export async function login(h: Harness, identifier: string, password: string, ip = nextIp()) {
  return h.app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { identifier, password } });
}

/** Sets the user's fund password through the API (with a `fund_password` code from the sink). */
export async function setFundPassword(h: Harness, user: { cookie: string; email: string }, fundPassword: string) {
  const code = await receiveCode(h, { purpose: 'fund_password', cookie: user.cookie, to: user.email });
  const res = await h.app.inject({
    method: 'POST',
    url: '/api/me/fund-password',
    remoteAddress: nextIp(),
    headers: { cookie: user.cookie },
    payload: { code, fundPassword, confirmFundPassword: fundPassword },
  });
  if (res.statusCode !== 204) throw new Error(`set fund password failed: ${res.statusCode} ${res.body}`);
}
