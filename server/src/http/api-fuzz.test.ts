import fc from 'fast-check';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { isErrorCode } from '../errors/codes.ts';
import { nextIp } from '../modules/auth/test-helpers.ts';
import { operatorCookie } from '../modules/operators/test-helpers.ts';
import { fund, newUser, useWalletHarness } from '../modules/withdrawals/test-helpers.ts';
import { type FuzzCase, fuzzCase, type OpenApiDoc, operationsOf } from './api-fuzz.ts';

/**
 * The API fuzz (issue 15): requests generated from the OpenAPI document — valid shapes, then mutated
 * (wrong types, missing and extra fields, huge strings, unicode, negative and 10^80 amounts, bad ids) —
 * against every operation, signed out and signed in (user and operator), seeded and reproducible
 * (FUZZ_SEED, FUZZ_RUNS). Every answer is below 500 and, when refused, in the `{ code, message }`
 * shape with a code of the closed set; a refused request changes no table (checksums before and after).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261126);
const RUNS = Number(process.env.FUZZ_RUNS ?? 2500);

/**
 * Tables a refused request may write, by design: the session's sliding expiry, throttles and attempt
 * counters (a failed sign-in or code counts against the next), and the security audit log.
 */
const WRITTEN_WHEN_REFUSED = new Set([
  'sessions',
  'throttles',
  'verification_codes',
  'audit_events',
  // The audit hash chain's head moves with every audit event (migration 0085).
  'audit_chain_head',
  // A passkey answer spends its challenge whether or not it verifies (single use, modules/security).
  'webauthn_challenges',
  // A user's next lottery server seed is committed on its first use (rewards/lottery-seeds.ts).
  'lottery_server_seeds',
]);
/** The outbox worker updates rows in the background (sent, attempts): only new rows count there. */
const ROWS_BY_ID = new Set(['outbox']);

/**
 * This harness runs without a payment provider, a price feed or a bitcoin deposit key (their own tests
 * start sandboxes and keys): those answer 503 "not available" here, by these codes only. Every other
 * 5xx is a failure.
 */
const UNCONFIGURED_HERE: [prefix: string, code: string][] = [
  ['/api/ramp', 'SERVICE_UNAVAILABLE'],
  ['/api/prices', 'PRICE_UNAVAILABLE'],
  ['/api/convert/quotes', 'PRICE_UNAVAILABLE'],
  ['/api/exchange', 'PRICE_UNAVAILABLE'],
  ['/api/wallet/deposit-address', 'SERVICE_UNAVAILABLE'],
];
function unconfiguredHere(url: string, status: number, code: unknown): boolean {
  return status === 503 && UNCONFIGURED_HERE.some(([prefix, c]) => url.startsWith(prefix) && code === c);
}

// Left out: they end the fuzzer's own session (a freeze ends every session of the account).
const SIGNS_OUT = new Set([
  'POST /api/auth/logout',
  'DELETE /api/ops/session',
  'POST /api/me/sessions/revoke-others',
  'POST /api/me/security/freeze',
]);

const h = useWalletHarness();

/** One checksum per table (sum of the rows' hashes), in one query. */
async function checksums(tables: string[]): Promise<Record<string, string>> {
  const columns = tables.map((t) =>
    ROWS_BY_ID.has(t)
      ? sql`(select coalesce(sum(hashtext(x.id::text)::numeric), 0)::text from ${sql.table(t)} x) as ${sql.ref(t)}`
      : sql`(select coalesce(sum(hashtext(x::text)::numeric), 0)::text from ${sql.table(t)} x) as ${sql.ref(t)}`,
  );
  const { rows } = await sql<Record<string, string>>`select ${sql.join(columns)}`.execute(h.db);
  return rows[0] ?? {};
}

describe('API fuzz', () => {
  it(`answers ${RUNS} generated requests without a 5xx, in the error shape, changing nothing when refused`, async () => {
    const doc = h.app.swagger() as unknown as OpenApiDoc;
    // Event streams never end when asked right (chat.api.test covers them); signing out would leave the
    // rest of the run signed out (the session tests cover it).
    const operations = operationsOf(doc).filter((op) => !op.streams && !SIGNS_OUT.has(`${op.method} ${op.path}`));
    expect(operations.length).toBeGreaterThan(90);
    const user = await newUser(h);
    await fund(h, user.user.id, 'USDT', 10n ** 9n);
    const signedIn = `${user.cookie}; ${await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'fuzz_probe', ['support', 'compliance', 'admin'])}`;
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
      order by 1`.execute(h.db);
    const watched = rows.map((r) => r.name).filter((t) => !WRITTEN_WHEN_REFUSED.has(t));
    let before = await checksums(watched);
    const problems: string[] = [];
    const statuses = new Map<number, number>();

    await fc.assert(
      fc.asyncProperty(fuzzCase(operations), fc.boolean(), async (c: FuzzCase, withSession) => {
        const response = await h.app.inject({
          method: c.method as 'GET',
          url: c.url,
          remoteAddress: nextIp(),
          headers: { ...(withSession ? { cookie: signedIn } : {}), ...(c.body === undefined ? {} : c.headers) },
          ...(c.body === undefined ? {} : { payload: c.body }),
        });
        const label = `${c.method} ${c.url} (${c.mutation}, ${withSession ? 'signed in' : 'signed out'}): ${response.body.slice(0, 300)}`;
        statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
        const after = await checksums(watched);
        // Every problem is collected (and the run goes on), so one run shows them all.
        const code = response.statusCode >= 400 ? (response.json() as { code?: unknown }).code : undefined;
        if (response.statusCode >= 500 && !unconfiguredHere(c.url, response.statusCode, code))
          problems.push(`5xx: ${label}`);
        if (response.statusCode >= 400) {
          const body = response.json() as { code?: unknown; message?: unknown };
          if (!(typeof body.code === 'string' && isErrorCode(body.code) && typeof body.message === 'string'))
            problems.push(`shape: ${label}`);
          const changed = watched.filter((t) => after[t] !== before[t]);
          if (changed.length > 0) problems.push(`changed ${changed.join(', ')}: ${label}`);
        }
        before = after;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(problems.slice(0, 30)).toEqual([]);
    // Most requests must get past the schema: a fuzz refused at the door tests nothing else.
    const answered = [...statuses.entries()].sort((a, b) => a[0] - b[0]);
    process.stderr.write(`[api-fuzz] seed ${SEED}, ${RUNS} requests, statuses ${JSON.stringify(answered)}\n`);
    expect(statuses.size).toBeGreaterThan(4);
    // Signed in stays signed in: at most the signed-out half (and a few) are refused as 401.
    expect(statuses.get(401) ?? 0).toBeLessThan(RUNS * 0.6);
  }, 300_000);
});
