/**
 * The authenticator-app part of `npm run bench:auth` (issue 31): a sign-in with password + TOTP
 * against one with the password alone, one at a time on the running bench server, so the figure is
 * the latency one user sees. Target: totp_login_p99_ms no more than 10 % over password_login_p99_ms
 * (both are argon2-bound; the code adds a sealed-secret open, an HMAC and one UPDATE).
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

/** Milliseconds of `n` password-only sign-ins of `identifiers` (round robin), one at a time. */
export async function passwordLoginTimes(base: string, identifiers: string[], password: string, n: number) {
  const out: number[] = [];
  for (let i = 0; i < n; i += 1) {
    const t0 = performance.now();
    const res = await post(base, '/api/auth/login', { identifier: identifiers[i % identifiers.length], password });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`password login: ${res.status}`);
    out.push(performance.now() - t0);
  }
  return out;
}

/** Milliseconds of password + TOTP sign-ins (both requests), three per enrolled user, one at a time. */
export async function totpLoginTimes(base: string, identifiers: string[], password: string): Promise<number[]> {
  const secrets: string[] = [];
  for (const identifier of identifiers) secrets.push(await enrol(base, identifier, password));
  const out: number[] = [];
  for (let pass = 0; pass < PASSES; pass += 1) {
    // Enrolment used the current step: each pass uses the next one (+1, within the drift), and the
    // next pass waits for the step to roll so its +1 is newer again.
    const step = Math.floor(Date.now() / STEP_MS);
    for (const [i, identifier] of identifiers.entries()) {
      const t0 = performance.now();
      const first = await post(base, '/api/auth/login', { identifier, password });
      await first.arrayBuffer();
      if (first.status !== 202) throw new Error(`totp login step 1: ${first.status}`);
      const code = totpCode(secrets[i] ?? '', new Date((step + 1) * STEP_MS));
      const second = await post(base, '/api/auth/login/factor', { totpCode: code }, cookieOf(first));
      await second.arrayBuffer();
      // A step boundary crossed twice during a pass could refuse a code: not a sample.
      if (second.status === 200) out.push(performance.now() - t0);
    }
    if (pass < PASSES - 1)
      while (Math.floor(Date.now() / STEP_MS) <= step) await new Promise((r) => setTimeout(r, 250));
  }
  return out;
}
