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
 * shape with a code of the closed set; a refused request changes no table (a change log kept by
 * triggers on every watched table, read after each request).
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

/**
 * Records every committed change to the watched tables in `fuzz_changes` (this file's own database):
 * an insert or delete of a row, a truncate, and an update that changes the row's text (what a checksum
 * of `row::text` would see; an update to the same values is not a change). For ROWS_BY_ID only new and
 * removed rows count. Reading the log after each request costs one small query, where checksumming
 * every table (about 150) after each of the 2,500 requests took most of this file's time. The log is
 * written inside the request's own transaction, so a rolled-back write leaves nothing, and a write by
 * any request is named with it.
 */
async function watchChanges(tables: string[]): Promise<() => Promise<string[]>> {
  await sql`create table fuzz_changes (id bigserial primary key, tbl text not null)`.execute(h.db);
  await sql`create function fuzz_note_change() returns trigger language plpgsql security definer as $$
    begin insert into fuzz_changes (tbl) values (tg_table_name); return null; end $$`.execute(h.db);
  // One statement list, no parameters: sent in one round trip (about 450 triggers).
  const triggers = tables.flatMap((t) => [
    sql`create trigger fuzz_rows after insert or delete on ${sql.table(t)}
      for each row execute function fuzz_note_change()`,
    sql`create trigger fuzz_truncate after truncate on ${sql.table(t)}
      for each statement execute function fuzz_note_change()`,
    ...(ROWS_BY_ID.has(t)
      ? []
      : [
          sql`create trigger fuzz_update after update on ${sql.table(t)}
            for each row when (old::text is distinct from new::text) execute function fuzz_note_change()`,
        ]),
  ]);
  await sql`${sql.join(triggers, sql`; `)}`.execute(h.db);
  return async () => {
    const { rows } = await sql<{ tbl: string }>`delete from fuzz_changes returning tbl`.execute(h.db);
    return [...new Set(rows.map((r) => r.tbl))].sort();
  };
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
    const changes = await watchChanges(watched);
    // The log's own check: an update to the same values is no change; a real one (and its undoing) is.
    const nickname = (name: string | null) =>
      sql`update accounts set nickname = ${name} where user_id = ${user.user.id}`.execute(h.db);
    const { numAffectedRows } = await nickname(null);
    expect(numAffectedRows).toBe(1n);
    expect(await changes()).toEqual([]);
    await nickname('fuzz');
    expect(await changes()).toEqual(['accounts']);
    await nickname(null);
    expect(await changes()).toEqual(['accounts']);
    let successesThatWrote = 0;
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
        const changed = await changes();
        // Every problem is collected (and the run goes on), so one run shows them all.
        const code = response.statusCode >= 400 ? (response.json() as { code?: unknown }).code : undefined;
        if (response.statusCode >= 500 && !unconfiguredHere(c.url, response.statusCode, code))
          problems.push(`5xx: ${label}`);
        if (response.statusCode >= 400) {
          const body = response.json() as { code?: unknown; message?: unknown };
          if (!(typeof body.code === 'string' && isErrorCode(body.code) && typeof body.message === 'string'))
            problems.push(`shape: ${label}`);
          if (changed.length > 0) problems.push(`changed ${changed.join(', ')}: ${label}`);
        } else if (changed.length > 0) successesThatWrote += 1;
      }),
      { numRuns: RUNS, seed: SEED },
    );
    expect(problems.slice(0, 30)).toEqual([]);
    // Most requests must get past the schema: a fuzz refused at the door tests nothing else.
    const answered = [...statuses.entries()].sort((a, b) => a[0] - b[0]);
    process.stderr.write(`[api-fuzz] seed ${SEED}, ${RUNS} requests, statuses ${JSON.stringify(answered)}\n`);
    expect(statuses.size).toBeGreaterThan(4);
    // The change log sees writes: requests that succeeded did change tables (else it would prove nothing).
    expect(successesThatWrote).toBeGreaterThan(0);
    // Signed in stays signed in: at most the signed-out half (and a few) are refused as 401.
    expect(statuses.get(401) ?? 0).toBeLessThan(RUNS * 0.6);
  }, 300_000);
});
