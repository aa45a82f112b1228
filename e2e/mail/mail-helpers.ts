import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { E2E_DEV_URL, E2E_OPS_URL, E2E_ROOT } from '../support/e2e-env.ts';
import { e2eDataDir } from '../wallet/wallet-helpers.ts';

export const OPERATOR = { name: 'e2e_operator', password: 'Ops-Console-2030' };

/**
 * e2e operators: one per spec (a TOTP code works once per operator and 30 s step, and specs run in
 * parallel). Their state lives in the e2e data folder: the pending enrolment token, then the
 * authenticator secret and the last step used.
 */
interface OperatorState {
  token?: string;
  secret?: string;
  lastStep?: number;
}
const stateFile = (name: string) => path.join(e2eDataDir(), `operator-${name}.json`);
const readState = (name: string): OperatorState =>
  existsSync(stateFile(name)) ? (JSON.parse(readFileSync(stateFile(name), 'utf8')) as OperatorState) : {};
const writeState = (name: string, state: OperatorState) => writeFileSync(stateFile(name), JSON.stringify(state));

const execFileAsync = promisify(execFile);

/**
 * Runs `npm run ops -- <args>` (server/scripts/ops.ts) against the e2e server's data folder and returns
 * its stdout; a non-zero exit rejects with the child's stdout and stderr on the error. Asynchronous: the
 * worker's other work (a page, a poll) goes on while the CLI starts.
 */
export async function opsCommand(args: string[]): Promise<string> {
  const script = path.join(E2E_ROOT, 'server/scripts/ops.ts');
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: E2E_ROOT,
    // The e2e server runs on the development clock (moved forward by the clock specs): the CLI dates
    // enrolment links by it too.
    env: { ...process.env, DATA_DIR: e2eDataDir(), DEV_CLOCK: 'true' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}
export const tokenOf = (output: string) => {
  const token = /#enrol=([A-Za-z0-9_-]{22})/.exec(output)?.[1];
  if (!token) throw new Error(`no enrolment link in: ${output}`);
  return token;
};

/**
 * Adds the operator with the real command (`npm run ops -- operators add … --roles …`), once per data
 * folder; the enrolment (password and app) is finished on first sign-in. An operator left without
 * its secret here gets a new link (`operators enrol`).
 */
export async function ensureOperator(name = OPERATOR.name, roles = 'support'): Promise<void> {
  const state = readState(name);
  if (state.secret || state.token) return;
  let output: string;
  try {
    output = await opsCommand(['operators', 'add', name, '--roles', roles]);
  } catch (err) {
    const stdout = String((err as { stdout?: string }).stdout ?? '');
    if (!stdout.includes('exists')) throw err;
    output = await opsCommand(['operators', 'enrol', name]);
  }
  writeState(name, { token: tokenOf(output) });
}

/** The operator console's page, on its own origin (not the user app's: issue 38 item 5). */
export const OPS_CONSOLE_URL = `${E2E_OPS_URL}/ops/`;

const step = (at: number) => Math.floor(at / 30_000);

/** The server's time (the development clock may have been moved forward: rewards.clock.spec.ts). */
export async function serverNow(request: APIRequestContext): Promise<number> {
  const res = await request.get(`${E2E_DEV_URL}/dev/clock`);
  const offsetMs = res.ok() ? ((await res.json()) as { offsetMs: number }).offsetMs : 0;
  return Date.now() + offsetMs;
}

/**
 * Finishes a pending enrolment through `request` (password and a first code), which signs it in;
 * returns whether it did.
 */
async function enrolIfPending(request: APIRequestContext, name: string): Promise<boolean> {
  const state = readState(name);
  if (!state.token) return false;
  const start = await request.post(`${E2E_OPS_URL}/api/ops/enrolment/start`, { data: { token: state.token } });
  expect(start.status(), await start.text()).toBe(200);
  const { secret } = (await start.json()) as { secret: string };
  const now = await serverNow(request);
  const finish = await request.post(`${E2E_OPS_URL}/api/ops/enrolment/finish`, {
    data: { token: state.token, password: OPERATOR.password, totpCode: totpOf(secret).generate({ timestamp: now }) },
  });
  expect(finish.status(), await finish.text()).toBe(200);
  writeState(name, { secret, lastStep: step(now) });
  return true;
}

/**
 * A code for `name` no sign-in used yet. When this step's code was spent, the next step's code: the
 * server accepts one step either side of its clock (TOTP_DRIFT_STEPS, a phone a little ahead) and
 * each step once, so that is a code an authenticator app a little ahead would show. Only when the next
 * step is spent as well does it wait for the clock (up to 30 s: that wait was paid on every second
 * sign-in of a spec before).
 */
export async function operatorCode(request: APIRequestContext, name = OPERATOR.name): Promise<string> {
  await enrolIfPending(request, name);
  const state = readState(name);
  if (!state.secret) throw new Error(`operator ${name}: call ensureOperator first`);
  let now = await serverNow(request);
  while (state.lastStep !== undefined && step(now) + 1 <= state.lastStep) {
    await new Promise((resolve) => setTimeout(resolve, 30_000 - (now % 30_000) + 50));
    now = await serverNow(request);
  }
  const at = state.lastStep !== undefined && step(now) <= state.lastStep ? now + 30_000 : now;
  writeState(name, { secret: state.secret, lastStep: step(at) });
  return totpOf(state.secret).generate({ timestamp: at });
}

export function totpOf(secret: string): TOTP {
  return new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
}

/** Fills the console's sign-in form (name, password, a fresh code) and submits it. */
export async function signInOperatorPage(page: Page, name = OPERATOR.name): Promise<void> {
  // A first enrolment signs the browser's context in already (its cookie jar is page.request's).
  if (await enrolIfPending(page.request, name)) {
    await page.reload();
    return;
  }
  const code = await operatorCode(page.request, name);
  await page.getByTestId('ops-name').fill(name);
  await page.getByTestId('ops-password').fill(OPERATOR.password);
  await page.getByTestId('ops-totp').fill(code);
  await page.getByTestId('ops-sign-in-submit').click();
}

/** Signs the operator in on `request` (its own cookie jar): the ops_sid cookie. */
export async function operatorSignIn(request: APIRequestContext, name = OPERATOR.name): Promise<void> {
  if (await enrolIfPending(request, name)) return; // the enrolment signed `request` in
  const totpCode = await operatorCode(request, name);
  const res = await request.post(`${E2E_OPS_URL}/api/ops/session`, {
    data: { name, password: OPERATOR.password, totpCode },
  });
  expect(res.status(), await res.text()).toBe(200);
}
