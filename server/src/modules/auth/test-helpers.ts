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

function setCookies(response: { headers: Record<string, unknown> }): unknown[] {
  const header = response.headers['set-cookie'];
  return Array.isArray(header) ? header : [header];
}

/** `did=...` (the device cookie, security/device-cookie.ts) from a response's Set-Cookie, if it set one. */
export function deviceCookie(response: { headers: Record<string, unknown> }): string | undefined {
  for (const c of setCookies(response)) {
    const match = typeof c === 'string' ? /^((?:__Host-)?did)=([^;]+)/.exec(c) : null;
    if (match && match[2] !== '') return `${match[1]}=${match[2]}`;
  }
  return undefined;
}

/**
 * `sid=...` from a response's Set-Cookie, for the Cookie header of the next request, with the device
 * cookie when the response set one (as a browser keeps both: a sign-in's second step comes from the
 * same browser).
 */
export function sessionCookie(response: { headers: Record<string, unknown> }): string {
  const device = deviceCookie(response);
  for (const c of setCookies(response)) {
    const match = typeof c === 'string' ? /^((?:__Host-)?sid)=([^;]+)/.exec(c) : null;
    if (match && match[2] !== '') return device ? `${match[1]}=${match[2]}; ${device}` : `${match[1]}=${match[2]}`;
  }
  throw new Error(`no session cookie in ${JSON.stringify(response.headers['set-cookie'])}`);
}

/**
 * The device cookie each user registered with, by e-mail and by user name (lower case): `login` sends
 * it, as the browser that registered would, so a test's sign-in is from a known device. A test of a
 * new device signs in without it (`login(..., { device: null })`).
 */
const registeredDevices = new Map<string, string>();

export function registeredDevice(identifier: string): string | undefined {
  return registeredDevices.get(identifier.trim().toLowerCase());
}

/** `cookie` with the user's registered device cookie added (for a hand-made sign-in request). */
export function withDevice(identifier: string, cookie?: string): string {
  const device = registeredDevice(identifier);
  return [cookie, device].filter(Boolean).join('; ');
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

/** Mails without a code that receiveCode skips, at most, before the code's mail. */
const MAILS_BEFORE_CODE_MAX = 20;

/** Requests a code and reads it from the mail the SMTP sink receives. */
export async function receiveCode(h: Harness, req: CodeRequest & { to?: string }): Promise<string> {
  const before = h.sink.messages.length;
  const res = await requestCode(h, req);
  if (res.statusCode !== 202) throw new Error(`code request failed: ${res.statusCode} ${res.body}`);
  // A notice queued earlier (a security alert, say) may be delivered after the request: skip mails
  // without a code, the code mail follows (the outbox delivers asynchronously). A burst of earlier
  // requests can queue several (the allowlist test's concurrent toggles queue security notices), and 5
  // was once too few in a full run. The bound only ends a wait for a mail that
  // never comes (each waitFor has its own timeout).
  let after = before;
  for (let skipped = 0; skipped < MAILS_BEFORE_CODE_MAX; skipped++) {
    const mail = await h.sink.waitFor(req.to ?? req.email ?? '', { after });
    const code = extractCode(mail.raw);
    if (code) return code;
    after = h.sink.messages.indexOf(mail) + 1;
  }
  throw new Error(`no code in the next ${MAILS_BEFORE_CODE_MAX} mails to ${req.to ?? req.email}`);
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
  const device = deviceCookie(res);
  if (device) for (const name of [username, email]) registeredDevices.set(name.toLowerCase(), device);
  return { username, email, password, cookie: sessionCookie(res), user: res.json().user as { id: string } };
}

/**
 * Signs in through the API from the browser the user registered with (its device cookie), or with
 * `device`: a cookie string, or null for a browser never seen (a new-device confirmation follows).
 */
export async function login(
  h: Harness,
  identifier: string,
  password: string,
  ip = nextIp(),
  options: { device?: string | null } = {},
) {
  const device = options.device === undefined ? registeredDevice(identifier) : options.device;
  return h.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: ip,
    ...(device ? { headers: { cookie: device } } : {}),
    payload: { identifier, password },
  });
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
