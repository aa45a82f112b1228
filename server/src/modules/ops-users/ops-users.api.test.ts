import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { maskEmail } from '../auth/rules.ts';
import { login, sessionCookie } from '../auth/test-helpers.ts';
import type { OperatorRole } from '../operators/roles.ts';
import { addTestOperator } from '../operators/test-helpers.ts';
import {
  ETH_ADDRESS,
  fund,
  get,
  key,
  newUser,
  post,
  transferCode,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';
import { maskLookupKey } from './masking.ts';

/** Issue 32, user lookup and actions: search, the masked page, the audited reveal, compliance's actions. */
const h = useWalletHarness();
const ETH = 10n ** 18n;
let seq = 0;

async function operator(roles: OperatorRole[]) {
  seq += 1;
  return addTestOperator(h.app, { db: h.db, now: h.clock.now }, `ou_${roles.join('_').slice(0, 20)}_${seq}`, roles);
}
const ops = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
  h.app.inject({ method, url: `/api/ops/users${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
const search = (cookie: string, q: string) => ops(cookie, 'GET', `?q=${encodeURIComponent(q)}`);
const act = (cookie: string, userId: string, action: string, reason = 'case 42: suspected takeover') =>
  ops(cookie, 'POST', `/${userId}/actions`, { action, reason });

async function withdraw(user: WalletUser) {
  return post(h, user, '/api/wallet/withdrawals', {
    coin: 'ETH',
    network: 'ethereum',
    address: ETH_ADDRESS,
    amountMinor: (ETH / 10n).toString(),
    idempotencyKey: key(),
    emailCode: await withdrawCode(h, user),
  });
}

describe('user lookup', () => {
  it('finds a user by id, e-mail, user name, deposit address and deposit or withdrawal hash; each lookup audited', async () => {
    const support = await operator(['support']);
    const user = await newUser(h);
    const id = user.user.id;
    const address = `0x${randomUUID().replaceAll('-', '')}abcdef01`;
    const depositHash = `0x${'ab'.repeat(24)}${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    const withdrawalHash = `0x${'cd'.repeat(24)}${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    await sql`insert into deposit_addresses (user_id, network, address, derivation_index)
      values (${id}, 'ethereum', ${address}, ${100_000 + seq})`.execute(h.db);
    await sql`insert into deposits (user_id, network, coin, tx_hash, output_index, to_address, chain_amount,
      amount_minor, block_number, block_hash, required_confirmations, state)
      values (${id}, 'ethereum', 'ETH', ${depositHash}, 0, ${address}, '1', '1', 1, '0x01', 12, 'confirming')`.execute(
      h.db,
    );
    await fund(h, id, 'ETH', ETH);
    const placed = await withdraw(user);
    expect(placed.statusCode, placed.body).toBe(201);
    await sql`update withdrawals set tx_hash = ${withdrawalHash} where user_id = ${id}`.execute(h.db);

    const keys: [string, string][] = [
      [id, 'user_id'],
      [user.email.toUpperCase(), 'email'],
      [user.username.toUpperCase(), 'username'],
      [address.toUpperCase().replace('0X', '0x'), 'deposit_address'],
      [depositHash, 'tx_hash'],
      [withdrawalHash.toUpperCase().replace('0X', '0x'), 'tx_hash'],
    ];
    for (const [q, by] of keys) {
      const res = await search(support.cookie, q);
      expect(res.statusCode, `${q}: ${res.body}`).toBe(200);
      expect(res.json().items).toEqual([
        {
          userId: id,
          username: user.username,
          email: maskEmail(user.email),
          createdAt: expect.any(String),
          matchedBy: by,
        },
      ]);
    }
    expect((await search(support.cookie, 'nobody@example.com')).json()).toEqual({ items: [], more: false });
    const lookups = (await listAudit(h.db)).filter((e) => e.event === 'ops_user_lookup');
    // Keys kept masked (review s7, finding 2: the audit log is searched by admins).
    for (const [q] of keys)
      expect(lookups.find((e) => e.details.key === maskLookupKey(q))).toMatchObject({ userId: id });
    expect(JSON.stringify(lookups)).not.toContain(user.email);
    expect(lookups.find((e) => e.details.key === maskLookupKey('nobody@example.com'))).toMatchObject({
      userId: null,
      details: { matches: 0, by: support.name, byOperatorId: support.id },
    });
  });

  it('a thousand users sharing a prefix: one search answers 20 and says there are more', async () => {
    const support = await operator(['support']);
    await sql`with u as (insert into users (id) select gen_random_uuid() from generate_series(1, 1000) returning id)
      insert into accounts (user_id, username, email, country, password_hash, created_at, updated_at)
      select id, 'bulk_' || row_number() over (), 'bulk' || row_number() over () || '@example.com', 'US', 'x', now(), now()
      from u`.execute(h.db);
    const started = performance.now();
    const res = await search(support.cookie, 'BULK_');
    const tookMs = performance.now() - started;
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items).toHaveLength(20);
    expect(res.json().more).toBe(true);
    expect(tookMs).toBeLessThan(2_000);
    expect((await search(support.cookie, 'bulk_777')).json().items[0]).toMatchObject({ username: 'bulk_777' });
  });
});

describe('the user page and the reveal', () => {
  it('masks personal data for every role; finance and admin are refused; a user session is not an operator', async () => {
    const [support, compliance, finance, admin] = [
      await operator(['support']),
      await operator(['compliance']),
      await operator(['finance']),
      await operator(['admin']),
    ];
    const user = await newUser(h);
    await fund(h, user.user.id, 'USDT', 12_345_678n);
    for (const who of [support, compliance]) {
      const res = await ops(who.cookie, 'GET', `/${user.user.id}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json();
      expect(page.profile).toMatchObject({ id: user.user.id, username: user.username, email: maskEmail(user.email) });
      expect(res.body).not.toContain(user.email);
      expect(page.balances).toEqual([
        { asset: 'USDT', availableMinor: '12345678', lockedMinor: '0', rewardsMinor: '0' },
      ]);
      expect(page.sessions.length).toBeGreaterThan(0);
      for (const s of page.sessions) expect(s.ip === null || /\*$/.test(s.ip)).toBe(true);
    }
    for (const who of [finance, admin]) {
      expect((await search(who.cookie, user.username)).statusCode).toBe(403);
      expect((await ops(who.cookie, 'GET', `/${user.user.id}`)).statusCode).toBe(403);
    }
    expect((await ops(support.cookie, 'GET', `/${user.user.id}/ledger`)).statusCode).toBe(403);
    expect((await ops(compliance.cookie, 'GET', `/${randomUUID()}`)).statusCode).toBe(404);
    expect((await ops(user.cookie, 'GET', `/${user.user.id}`)).statusCode).toBe(401);
  });

  it('reveal: support refused, compliance needs a reason, answers one field and records who, whose, which and why', async () => {
    const support = await operator(['support']);
    const compliance = await operator(['compliance']);
    const user = await newUser(h);
    const other = await newUser(h);
    const reveal = (cookie: string, body: object, userId = user.user.id) =>
      ops(cookie, 'POST', `/${userId}/reveal`, body);
    expect((await reveal(support.cookie, { field: 'email', reason: 'ticket 7' })).statusCode).toBe(403);
    expect((await reveal(compliance.cookie, { field: 'email' })).statusCode).toBe(400);
    expect((await reveal(compliance.cookie, { field: 'email', reason: '' })).statusCode).toBe(400);
    const blank = await reveal(compliance.cookie, { field: 'email', reason: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().code).toBe('VALIDATION_FAILED');
    const before = (await listAudit(h.db, { userId: user.user.id })).filter(
      (e) => e.event === 'ops_user_field_revealed',
    );
    expect(before).toEqual([]);

    const res = await reveal(compliance.cookie, { field: 'email', reason: 'ticket 7: confirm the address' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ field: 'email', itemId: null, value: user.email });
    const page = (await ops(compliance.cookie, 'GET', `/${user.user.id}`)).json();
    const sessionId = page.sessions[0].id as string;
    const ip = await reveal(compliance.cookie, { field: 'session_ip', itemId: sessionId, reason: 'ticket 7' });
    expect(ip.statusCode, ip.body).toBe(200);
    expect(ip.json()).toMatchObject({ field: 'session_ip', itemId: sessionId });
    // Another user's session through this user's page: not found, and nothing recorded.
    expect(
      (await reveal(compliance.cookie, { field: 'session_ip', itemId: sessionId, reason: 'x' }, other.user.id))
        .statusCode,
    ).toBe(404);
    expect((await reveal(compliance.cookie, { field: 'session_ip', reason: 'x' })).statusCode).toBe(400);

    const recorded = (await listAudit(h.db)).filter((e) => e.event === 'ops_user_field_revealed');
    expect(recorded.filter((e) => e.userId === user.user.id).map((e) => e.details)).toEqual([
      {
        field: 'email',
        itemId: null,
        reason: 'ticket 7: confirm the address',
        by: compliance.name,
        byOperatorId: compliance.id,
      },
      { field: 'session_ip', itemId: sessionId, reason: 'ticket 7', by: compliance.name, byOperatorId: compliance.id },
    ]);
    expect(recorded.filter((e) => e.userId === other.user.id)).toEqual([]);
  });

  it('pages the ledger by keyset, newest first, without overlap', async () => {
    const compliance = await operator(['compliance']);
    const user = await newUser(h);
    for (let i = 1; i <= 5; i++) await fund(h, user.user.id, 'USDT', BigInt(i));
    const seen: string[] = [];
    let before: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const url: string = `/${user.user.id}/ledger?limit=2${before ? `&before=${before}` : ''}`;
      const res = await ops(compliance.cookie, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as { items: { id: string; amountMinor: string }[]; next: string | null };
      seen.push(...body.items.map((i) => i.amountMinor));
      before = body.next;
      if (before === null) break;
    }
    expect(seen).toEqual(['5', '4', '3', '2', '1']);
    expect((await ops(compliance.cookie, 'GET', `/${user.user.id}/ledger?limit=100000`)).statusCode).toBe(400);
  });
});

describe('compliance actions', () => {
  it('freeze ends the sessions and refuses withdrawals; the owner cannot unfreeze it; compliance can', async () => {
    const compliance = await operator(['compliance']);
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    const frozen = await act(compliance.cookie, user.user.id, 'freeze');
    expect(frozen.statusCode, frozen.body).toBe(200);
    expect(frozen.json()).toMatchObject({ action: 'freeze', changed: true });
    expect(frozen.json().sessionsEnded).toBeGreaterThan(0);
    expect((await get(h, user, '/api/me')).statusCode).toBe(401);

    const back = await login(h, user.email, user.password);
    expect(back.statusCode, back.body).toBe(200);
    const again = { ...user, cookie: sessionCookie(back) };
    const status = await get(h, again, '/api/me/security/freeze');
    expect(status.json()).toMatchObject({ frozen: true, thawsAt: null });
    const refused = await withdraw(again);
    expect(refused.json().code).toBe('ACCOUNT_FROZEN');
    const unfreeze = await post(h, again, '/api/me/security/freeze/unfreeze', {
      password: user.password,
      emailCode: '123456',
    });
    expect(unfreeze.json().code).toBe('ACCOUNT_FROZEN_BY_OPERATOR');

    // Again: nothing to do, recorded as such. Then compliance lifts it and money moves again.
    expect((await act(compliance.cookie, user.user.id, 'freeze')).json()).toMatchObject({
      changed: false,
      sessionsEnded: 0,
    });
    expect((await act(compliance.cookie, user.user.id, 'unfreeze', 'cleared')).json()).toMatchObject({ changed: true });
    expect((await act(compliance.cookie, user.user.id, 'unfreeze', 'cleared')).json()).toMatchObject({
      changed: false,
    });
    const third = { ...user, cookie: sessionCookie(await login(h, user.email, user.password)) };
    expect((await withdraw(third)).statusCode).toBe(201);
    const audit = (await listAudit(h.db, { userId: user.user.id })).filter((e) => e.event.startsWith('ops_user_'));
    expect(audit.map((e) => [e.event, e.details.changed])).toEqual([
      ['ops_user_frozen', true],
      ['ops_user_frozen', false],
      ['ops_user_unfrozen', true],
      ['ops_user_unfrozen', false],
    ]);
    expect(audit[0]?.details).toMatchObject({ reason: 'case 42: suspected takeover', by: compliance.name });
  });

  it('two freezes at once: exactly one changes anything; a frozen withdrawal under way is returned once', async () => {
    const compliance = await operator(['compliance']);
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', 10n * ETH);
    h.clock.advance(1000);
    const big = await post(h, user, '/api/wallet/withdrawals', {
      coin: 'ETH',
      network: 'ethereum',
      address: ETH_ADDRESS,
      amountMinor: (6n * ETH).toString(),
      idempotencyKey: key(),
      emailCode: await withdrawCode(h, user),
    });
    expect(big.statusCode, big.body).toBe(201);
    const both = await Promise.all([
      act(compliance.cookie, user.user.id, 'freeze'),
      act(compliance.cookie, user.user.id, 'freeze'),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(both.map((r) => r.json().changed).sort()).toEqual([false, true]);
    expect(both.map((r) => r.json().cancelledWithdrawals).sort()).toEqual([0, 1]);
    const rows = await h.db.selectFrom('operator_freezes').selectAll().where('user_id', '=', user.user.id).execute();
    expect(rows).toHaveLength(1);
    const available = await h.db
      .selectFrom('ledger_accounts')
      .select('balance')
      .where('user_id', '=', user.user.id)
      .where('kind', '=', 'user_available')
      .where('asset', '=', 'ETH')
      .executeTakeFirstOrThrow();
    expect(available.balance).toBe((10n * ETH).toString());
  });

  it('end sessions, the withdrawal hold (idempotent), bad input changes nothing, support and unknown users refused', async () => {
    const compliance = await operator(['compliance']);
    const support = await operator(['support']);
    const user = await newUser(h);
    await fund(h, user.user.id, 'ETH', ETH);
    for (const action of ['freeze', 'unfreeze', 'end_sessions', 'hold_withdrawals', 'release_withdrawals'])
      expect((await act(support.cookie, user.user.id, action)).statusCode).toBe(403);
    expect((await act(compliance.cookie, randomUUID(), 'freeze')).statusCode).toBe(404);
    expect((await act(compliance.cookie, user.user.id, 'freeze', '  ')).statusCode).toBe(400);
    expect((await act(compliance.cookie, user.user.id, 'explode')).statusCode).toBe(400);
    expect((await ops(compliance.cookie, 'POST', `/${user.user.id}/actions`, { action: 'freeze' })).statusCode).toBe(
      400,
    );
    expect((await get(h, user, '/api/me')).statusCode).toBe(200);
    expect(await h.db.selectFrom('operator_freezes').selectAll().where('user_id', '=', user.user.id).execute()).toEqual(
      [],
    );

    expect((await act(compliance.cookie, user.user.id, 'hold_withdrawals')).json()).toMatchObject({ changed: true });
    expect((await act(compliance.cookie, user.user.id, 'hold_withdrawals')).json()).toMatchObject({ changed: false });
    const held = await withdraw(user);
    expect(held.statusCode).toBe(423);
    expect(held.json().code).toBe('WITHDRAW_HELD');
    // A send to another user is a withdrawal one step later: held too.
    const mule = await newUser(h);
    const sent = await post(h, user, '/api/wallet/sends', {
      coin: 'ETH',
      amountMinor: (ETH / 100n).toString(),
      recipientKind: 'email',
      recipient: mule.email,
      idempotencyKey: key(),
      emailCode: await transferCode(h, user),
    });
    expect(sent.json().code).toBe('WITHDRAW_HELD');
    expect((await get(h, user, '/api/me')).statusCode).toBe(200);
    const page = (await ops(compliance.cookie, 'GET', `/${user.user.id}`)).json();
    expect(page.security.withdrawalHold).toMatchObject({ reason: 'case 42: suspected takeover', by: compliance.name });
    expect((await act(compliance.cookie, user.user.id, 'release_withdrawals')).json()).toMatchObject({ changed: true });
    expect((await act(compliance.cookie, user.user.id, 'release_withdrawals')).json()).toMatchObject({
      changed: false,
    });
    expect((await withdraw(user)).statusCode).toBe(201);

    const ended = await act(compliance.cookie, user.user.id, 'end_sessions');
    expect(ended.json()).toMatchObject({ action: 'end_sessions', changed: true });
    expect((await get(h, user, '/api/me')).statusCode).toBe(401);
    expect((await act(compliance.cookie, user.user.id, 'end_sessions')).json()).toMatchObject({ changed: false });
  });
});
