import { describe, expect, it } from 'vitest';
import { hashToken, newSessionToken } from '../auth/secrets.ts';
import { nextIp, useAuthHarness } from '../auth/test-helpers.ts';
import { totpCode } from '../security/totp.ts';
import { createOperatorAccounts } from './accounts-service.ts';
import { insertOperatorSession } from './repository.ts';
import { addTestOperator, TEST_OPERATOR_PASSWORD } from './test-helpers.ts';

/**
 * Review 32a, finding 2: "finance is granted from the ops CLI only" and "a console admin cannot
 * re-enrol a finance operator" are both checked, but a finance grant does not void an enrolment link
 * a console admin already holds (POST /api/ops/operators answers the token to the admin; so does
 * POST /api/ops/operators/:id/enrolment for a non-finance operator). The admin adds (or re-enrols) a
 * support operator, keeps the link, and the CLI holder later grants finance to that name: the admin
 * finishes the enrolment and is a money approver.
 */
const h = useAuthHarness();
const deps = () => ({ db: h.db, now: h.clock.now });

describe('review 32a: finance grant vs a pending console-issued enrolment link', () => {
  it('a finance grant from the CLI voids an enrolment link the console admin holds', async () => {
    const admin = await addTestOperator(h.app, deps(), 'rev_admin', ['admin']);
    const added = await h.app.inject({
      method: 'POST',
      url: '/api/ops/operators',
      headers: { cookie: admin.cookie },
      payload: { name: 'new_payer', roles: ['support'] },
    });
    expect(added.statusCode, added.body).toBe(201);
    const { id, enrolmentToken: token } = added.json() as { id: string; enrolmentToken: string };
    // Later, the CLI holder makes the new colleague a finance operator (the only place finance is granted).
    await createOperatorAccounts(deps()).setRoles({ kind: 'cli' }, id, ['finance']);
    // The console admin still has the link.
    const start = await h.app.inject({ method: 'POST', url: '/api/ops/enrolment/start', payload: { token } });
    const secret = (start.json() as { secret?: string }).secret ?? 'AAAAAAAAAAAAAAAA';
    const finish = await h.app.inject({
      method: 'POST',
      url: '/api/ops/enrolment/finish',
      remoteAddress: nextIp(),
      payload: { token, password: TEST_OPERATOR_PASSWORD, totpCode: totpCode(secret, h.clock.now()) },
    });
    // Was: 200 {operator: {name: 'new_payer', roles: ['finance']}}, in the admin's hands.
    expect(finish.statusCode, finish.body).toBe(401);
  });

  it('one admin alone cannot give themself a role (a second admin account they enrol themselves)', async () => {
    const admin = await addTestOperator(h.app, deps(), 'solo_admin', ['admin']);
    // Fixed by making admin and compliance, like finance, grants of the ops CLI only (account-guards.ts):
    // the console refuses to mint the second admin identity in the first place.
    for (const roles of [['admin'], ['compliance'], ['support', 'admin']]) {
      const refused = await h.app.inject({
        method: 'POST',
        url: '/api/ops/operators',
        headers: { cookie: admin.cookie },
        payload: { name: 'solo_sock', roles },
      });
      expect(refused.statusCode, refused.body).toBe(403);
    }
    // A support account they enrol themselves holds no admin rights to grant anything with.
    const added = await h.app.inject({
      method: 'POST',
      url: '/api/ops/operators',
      headers: { cookie: admin.cookie },
      payload: { name: 'solo_sock', roles: ['support'] },
    });
    expect(added.statusCode, added.body).toBe(201);
    const { enrolmentToken: token } = added.json() as { enrolmentToken: string };
    const start = await h.app.inject({ method: 'POST', url: '/api/ops/enrolment/start', payload: { token } });
    const { secret } = start.json() as { secret: string };
    const finish = await h.app.inject({
      method: 'POST',
      url: '/api/ops/enrolment/finish',
      remoteAddress: nextIp(),
      payload: { token, password: TEST_OPERATOR_PASSWORD, totpCode: totpCode(secret, h.clock.now()) },
    });
    expect(finish.statusCode, finish.body).toBe(200);
    const sock = String(finish.headers['set-cookie']).split(';')[0] as string;
    // "Nobody changes their own roles: another admin does" - the other admin is the same person.
    const grant = await h.app.inject({
      method: 'PUT',
      url: `/api/ops/operators/${admin.id}/roles`,
      headers: { cookie: sock },
      payload: { roles: ['admin', 'compliance'] },
    });
    expect(grant.statusCode).not.toBe(204); // was 204: solo_admin then read and froze users
  });

  it('disabling an admin voids the enrolment links that admin issued (no way back in)', async () => {
    const leaver = await addTestOperator(h.app, deps(), 'leaving_admin', ['admin']);
    // Before leaving, the admin quietly adds an account and keeps its link (valid 24 h).
    const added = await h.app.inject({
      method: 'POST',
      url: '/api/ops/operators',
      headers: { cookie: leaver.cookie },
      payload: { name: 'spare_key', roles: ['support'] }, // admin/compliance: CLI only now (finding 4)
    });
    expect(added.statusCode, added.body).toBe(201);
    const { enrolmentToken: token } = added.json() as { enrolmentToken: string };
    await createOperatorAccounts(deps()).disable({ kind: 'cli' }, leaver.id);
    const start = await h.app.inject({ method: 'POST', url: '/api/ops/enrolment/start', payload: { token } });
    const secret = (start.json() as { secret?: string }).secret ?? 'AAAAAAAAAAAAAAAA';
    const finish = await h.app.inject({
      method: 'POST',
      url: '/api/ops/enrolment/finish',
      remoteAddress: nextIp(),
      payload: { token, password: TEST_OPERATOR_PASSWORD, totpCode: totpCode(secret, h.clock.now()) },
    });
    // Was: 200, the disabled admin back in as spare_key.
    expect(finish.statusCode, finish.body).toBe(401);
  });

  it('a session of an operator without a confirmed authenticator (from before 0084) is not honoured', async () => {
    // 0084 gave every existing operator admin + support and made the app mandatory, but left their
    // password-only sessions alive; the guard never looks at totp_confirmed_at.
    const { id } = await createOperatorAccounts(deps()).add({ kind: 'cli' }, 'legacy_ops', ['admin', 'support']);
    const token = newSessionToken();
    await insertOperatorSession(
      h.db,
      { operatorId: id, tokenHash: hashToken(token), expiresAt: new Date(h.clock.now().getTime() + 3_600_000) },
      h.clock.now(),
    );
    const list = await h.app.inject({
      method: 'GET',
      url: '/api/ops/operators',
      headers: { cookie: `ops_sid=${token}` },
    });
    expect(list.statusCode).toBe(401); // today 200: a password-only session is an admin
  });
});
