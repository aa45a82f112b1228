import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect } from '@playwright/test';
import { E2E_OPS_URL, E2E_ROOT } from '../support/e2e-env.ts';
import { e2eDataDir } from '../wallet/wallet-helpers.ts';

export const OPERATOR = { name: 'e2e_operator', password: 'Ops-Console-2030' };

/** Adds the e2e operator with the real command (`npm run ops -- operators add`), once per data folder. */
export function ensureOperator(): void {
  try {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(E2E_ROOT, 'server/scripts/ops.ts'), 'operators', 'add', OPERATOR.name],
      {
        cwd: E2E_ROOT,
        env: { ...process.env, DATA_DIR: e2eDataDir() },
        input: `${OPERATOR.password}\n`,
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
  } catch (err) {
    const output = String((err as { stdout?: Buffer }).stdout ?? '');
    if (!output.includes('exists')) throw err;
  }
}

/** The operator console's page, on its own origin (not the user app's). */
export const OPS_CONSOLE_URL = `${E2E_OPS_URL}/ops/`;

/** Signs the operator in on `request` (its own cookie jar) at the console's origin: the ops_sid cookie. */
export async function operatorSignIn(request: APIRequestContext): Promise<void> {
  const res = await request.post(`${E2E_OPS_URL}/api/ops/session`, { data: OPERATOR });
  expect(res.status(), await res.text()).toBe(200);
}
