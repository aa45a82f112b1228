import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { insertCode } from '../auth/codes-repository.ts';
import { hashCode, newSalt } from '../auth/secrets.ts';
import { createMoonPayClient, type MoonPayClient } from './moonpay/client.ts';
import { webhookHeader } from './moonpay/signing.ts';
import { type SandboxRamp, startSandboxRamp } from './sandbox/sandbox-server.ts';

export const SANDBOX_KEYS = { publishableKey: 'pk_test_t', secretKey: 'sk_test_t', webhookKey: 'wk_test_t' };

/** The sandbox provider on loopback without chains (quotes, checkout pages, look-ups) and its adapter. */
export async function startTestProvider(): Promise<{ sandbox: SandboxRamp; client: MoonPayClient }> {
  const sandbox = await startSandboxRamp({ chains: () => ({}), ...SANDBOX_KEYS, duplicateRate: 0, reorderRate: 0 });
  const client = createMoonPayClient({
    apiUrl: sandbox.url,
    buyWidgetUrl: `${sandbox.url}/buy`,
    sellWidgetUrl: `${sandbox.url}/sell`,
    ...SANDBOX_KEYS,
    kind: 'sandbox',
  });
  return { sandbox, client };
}

/** A user with an account row in `country` (what the ramp reads), for header-session test apps. */
export async function createUserIn(db: Kysely<Database>, country: string): Promise<string> {
  const { id } = await db.insertInto('users').defaultValues().returning('id').executeTakeFirstOrThrow();
  await db
    .insertInto('accounts')
    .values({
      user_id: id,
      username: `u${id.slice(0, 8)}`,
      email: `${id}@example.com`,
      nickname: null,
      country,
      password_hash: 'x',
      fund_password_hash: null,
      created_at: new Date(),
      updated_at: new Date(),
    })
    .execute();
  return id;
}

export function setCountry(db: Kysely<Database>, userId: string, country: string) {
  return db.updateTable('accounts').set({ country }).where('user_id', '=', userId).execute();
}

/** A webhook body and its signature header as MoonPay would send them. */
export function signedWebhook(
  type: string,
  data: Record<string, unknown>,
  options: { key?: string; atS?: number } = {},
): { body: string; header: string } {
  const body = JSON.stringify({ type, data, externalCustomerId: null });
  const t = options.atS ?? Math.floor(Date.now() / 1000);
  return { body, header: webhookHeader(t, body, options.key ?? SANDBOX_KEYS.webhookKey) };
}

/**
 * Test-only: a fresh `withdraw` e-mail code for a user made by createUserIn (no mailbox there), as
 * a sell order takes. Stored hashed like an issued code; valid for 10 minutes from `at`.
 */
export async function plantWithdrawCode(db: Kysely<Database>, userId: string, at: Date): Promise<string> {
  const code = String(100_000 + Math.floor(Math.random() * 900_000));
  const salt = newSalt();
  // Codes of one instant tie on "latest": the used ones go, so the new one is the latest.
  await db.deleteFrom('verification_codes').where('email', '=', `${userId}@example.com`).execute();
  await insertCode(
    db,
    {
      email: `${userId}@example.com`,
      purpose: 'withdraw',
      userId,
      salt,
      codeHash: hashCode(salt, 'withdraw', code),
      expiresAt: new Date(at.getTime() + 600_000),
      ip: null,
    },
    at,
  );
  return code;
}
