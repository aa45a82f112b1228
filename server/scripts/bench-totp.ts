/**
 * The authenticator-app part of `npm run bench:auth` (issue 31): a sign-in with password + TOTP
 * against one with the password alone, one at a time on the running bench server (the latency one
 * user sees), taken in turn so both see the same load. Target: totp_login_p99_ms no more than 10 %
 * over password_login_p99_ms (both are argon2-bound; the second step adds a request, the throttle
 * charge, a sealed-secret open, an HMAC and the session swap).
 *
 * A code is accepted once per 30 s step (ASVS 6.5.1) and only for a step newer than the last one used,
 * with ±1 step of drift: each pass signs every enrolled user in once with the next step's code.
 */
import { randomBytes } from 'node:crypto';
import { totpCode } from '../src/modules/security/totp.ts';

const STEP_MS = 30_000;
/** Passes over the enrolled users; each after the first waits up to one 30 s step. */
const PASSES = 3;

/**
 * The bench's one browser: every bench user has it among their known devices (bench-auth.ts inserts
 * them), so a sign-in is timed as a returning user's, not one waiting for a new-device e-mail.
 */
export const BENCH_DEVICE_ID = randomBytes(32).toString('base64url');
export const BENCH_DEVICE_COOKIE = `did=${BENCH_DEVICE_ID}`;

/** The session cookie (`sid=…`) a response set, with the bench's device cookie. */
export function cookieOf(res: Response): string {
  const sid = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .find((pair) => pair.startsWith('sid='));
  return sid ?? '';
}

async function post(base: string, url: string, body: unknown, cookie = ''): Promise<Response> {
  return fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: [cookie, BENCH_DEVICE_COOKIE].filter(Boolean).join('; ') },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

/** Turns the app on for `identifier` (a fresh sign-in counts as the re-authentication); returns the secret. */
async function enrol(base: string, identifier: string, password: string): Promise<string> {
  const login = await post(base, '/api/auth/login', { identifier, password });
  if (login.status !== 200) throw new Error(`enrol login ${identifier}: ${login.status}`);
  const cookie = cookieOf(login);
  const start = await fetch(`${base}/api/me/security/totp`, {
    method: 'POST',
    headers: { cookie: `${cookie}; ${BENCH_DEVICE_COOKIE}` },
  });
  const { secret } = (await start.json()) as { secret: string };
  const confirm = await post(base, '/api/me/security/totp/confirm', { code: totpCode(secret, new Date()) }, cookie);
  if (confirm.status !== 200) throw new Error(`enrol confirm ${identifier}: ${confirm.status} ${await confirm.text()}`);
  return secret;
}

/** One password-only sign-in, timed. */
async function timedPasswordLogin(base: string, identifier: string, password: string): Promise<number> {
  const t0 = performance.now();
  const res = await post(base, '/api/auth/login', { identifier, password });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`password login: ${res.status}`);
  return performance.now() - t0;
}

/** One password + TOTP sign-in (both requests), timed; null when a step boundary refused the code. */
async function timedTotpLogin(base: string, identifier: string, password: string, secret: string, step: number) {
  const t0 = performance.now();
  const first = await post(base, '/api/auth/login', { identifier, password });
  await first.arrayBuffer();
  if (first.status !== 202) throw new Error(`totp login step 1: ${first.status}`);
  const code = totpCode(secret, new Date((step + 1) * STEP_MS));
  const second = await post(base, '/api/auth/login/factor', { totpCode: code }, cookieOf(first));
  await second.arrayBuffer();
  return second.status === 200 ? performance.now() - t0 : null;
}

/**
 * Milliseconds of password + TOTP sign-ins of `totpUsers` (both requests; three per user, one at a
 * time) and of as many password-only sign-ins of `passwordUsers` (round robin), taken in turn: each
 * TOTP sign-in is followed by a password one, so both see the same load on a shared machine (the
 * ratio of the two is the figure that matters; run one after the other, a change of load between the
 * runs moved it by tens of per cent).
 */
export async function interleavedLoginTimes(
  base: string,
  totpUsers: string[],
  passwordUsers: string[],
  password: string,
): Promise<{ totp: number[]; password: number[] }> {
  const secrets: string[] = [];
  for (const identifier of totpUsers) secrets.push(await enrol(base, identifier, password));
  const totp: number[] = [];
  const plain: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    // Enrolment used the current step: each pass uses the next one (+1, within the drift), and the
    // next pass waits for the step to roll so its +1 is newer again.
    const step = Math.floor(Date.now() / STEP_MS);
    for (const [i, identifier] of totpUsers.entries()) {
      const took = await timedTotpLogin(base, identifier, password, secrets[i] ?? '', step);
      // A step boundary crossed twice during a pass could refuse a code: not a sample (nor its pair).
      if (took === null) continue;
      totp.push(took);
      plain.push(await timedPasswordLogin(base, passwordUsers[plain.length % passwordUsers.length] ?? '', password));
    }
    if (pass < PASSES - 1)
      while (Math.floor(Date.now() / STEP_MS) <= step) await new Promise((r) => setTimeout(r, 250));
  }
  return { totp, password: plain };
}
