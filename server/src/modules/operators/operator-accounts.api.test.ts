import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { nextIp, registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { totpCode } from '../security/totp.ts';
import { createOperatorAccounts } from './accounts-service.ts';
import { runOperatorsCommand } from './ops-commands.ts';
import { addTestOperator, operatorSignInBody, TEST_OPERATOR_PASSWORD } from './test-helpers.ts';

/**
 * Issue 32: operator sign-in needs the authenticator app; sessions end after 15 idle minutes and 8
 * hours; admin manages operators without being able to escalate (own roles, finance, re-enrolling a
 * finance operator); a disabled operator or a removed role counts at the next request.
 */
const h = useAuthHarness();
const deps = () => ({ db: h.db, now: h.clock.now });
const add = (name: string, roles: Parameters<typeof addTestOperator>[3]) => addTestOperator(h.app, deps(), name, roles);
const as = (cookie: string) => ({ headers: { cookie } });
const signIn = (payload: object) =>
  h.app.inject({ method: 'POST', url: '/api/ops/session', remoteAddress: nextIp(), payload });
const whoIs = async (cookie: string) =>
  (await h.app.inject({ method: 'GET', url: '/api/ops/session', ...as(cookie) })).json().operator;

describe('operator sign-in', () => {
  it('needs password and a fresh code: a password alone, a wrong code or a replayed code fail alike', async () => {
    const op = await add('totp_ops', ['support']);
    const body = operatorSignInBody(op, h.clock.now());
    expect((await signIn({ name: op.name, password: TEST_OPERATOR_PASSWORD })).statusCode).toBe(400);
    const wrong = await signIn({ ...body, totpCode: body.totpCode === '000000' ? '111111' : '000000' });
    expect(wrong.json().code).toBe('INVALID_CREDENTIALS');
    const ok = await signIn(body);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toEqual({ operator: { name: 'totp_ops', roles: ['support'] } });
    expect((await signIn(body)).json().code).toBe('INVALID_CREDENTIALS');
  });

  it('an operator who never enrolled cannot sign in; the link works once and for 24 hours', async () => {
    const accounts = createOperatorAccounts(deps());
    const { token } = await accounts.add({ kind: 'cli' }, 'late_ops', ['support']);
    const start = await h.app.inject({ method: 'POST', url: '/api/ops/enrolment/start', payload: { token } });
    const { secret } = start.json();
    const finish = (code: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/ops/enrolment/finish',
        payload: { token, password: TEST_OPERATOR_PASSWORD, totpCode: code },
      });
    expect(
      (await signIn({ name: 'late_ops', password: 'x', totpCode: totpCode(secret, h.clock.now()) })).statusCode,
    ).toBe(401);
    expect((await finish('000000')).statusCode).toBe(400);
    expect((await finish(totpCode(secret, h.clock.now()))).statusCode).toBe(200);
    expect((await finish(totpCode(secret, h.clock.now()))).json().code).toBe('INVALID_CREDENTIALS');
    const expired = await accounts.add({ kind: 'cli' }, 'slow_ops', ['support']);
    h.clock.advance(24 * 3_600_000 + 1);
    const late = await h.app.inject({
      method: 'POST',
      url: '/api/ops/enrolment/start',
      payload: { token: expired.token },
    });
    expect(late.statusCode).toBe(401);
  });

  it('a session ends after 15 idle minutes, and after 8 hours however busy', async () => {
    const op = await add('idle_ops', ['support']);
    h.clock.advance(15 * 60_000 + 1);
    expect(await whoIs(op.cookie)).toBeNull();
    const busy = await add('busy_ops', ['support']);
    for (let minutes = 0; minutes < 8 * 60 - 10; minutes += 10) {
      h.clock.advance(10 * 60_000);
      expect(await whoIs(busy.cookie), `after ${minutes + 10} min`).not.toBeNull();
    }
    h.clock.advance(10 * 60_000);
    expect(await whoIs(busy.cookie)).toBeNull();
  });
});

describe('admin and escalation', () => {
  it('an admin cannot change their own roles, grant finance, add a finance operator or re-enrol one', async () => {
    const admin = await add('boss_ops', ['admin']);
    const other = await add('helper_ops', ['support']);
    const fin = await add('money_ops', ['finance']);
    const put = (id: string, roles: string[]) =>
      h.app.inject({ method: 'PUT', url: `/api/ops/operators/${id}/roles`, ...as(admin.cookie), payload: { roles } });
    expect((await put(admin.id, ['admin', 'support'])).statusCode).toBe(403);
    expect((await put(other.id, ['finance'])).statusCode).toBe(403);
    expect((await put(other.id, ['admin', 'finance'])).statusCode).toBe(400);
    const added = await h.app.inject({
      method: 'POST',
      url: '/api/ops/operators',
      ...as(admin.cookie),
      payload: { name: 'minted_ops', roles: ['finance'] },
    });
    expect(added.statusCode).toBe(403);
    const relink = await h.app.inject({
      method: 'POST',
      url: `/api/ops/operators/${fin.id}/enrolment`,
      ...as(admin.cookie),
    });
    expect(relink.statusCode).toBe(403);
    // Taking finance away is allowed, and counts at the operator's next request.
    const money = () => h.app.inject({ method: 'GET', url: '/api/ops/sbom', ...as(fin.cookie) });
    expect((await money()).statusCode).toBe(404);
    expect((await put(fin.id, ['support'])).statusCode).toBe(204);
    expect((await money()).statusCode).toBe(403);
    // The CLI (the server's shell) may grant finance, never with admin.
    expect(await runOperatorsCommand(h.db, ['roles', 'helper_ops', 'finance'], () => {}, 'http://x/ops/')).toBe(0);
    expect(await runOperatorsCommand(h.db, ['roles', 'boss_ops', 'admin,finance'], () => {}, 'http://x/ops/')).toBe(1);
    const changes = (await listAudit(h.db)).filter((e) => e.event === 'operator_roles_changed');
    expect(changes.map((e) => [e.details.operator, e.details.by])).toEqual([
      ['money_ops', 'boss_ops'],
      ['helper_ops', 'ops-cli'],
    ]);
  });

  it("disabling an operator ends their session at once; admin ends an operator's and a user's sessions", async () => {
    const admin = await add('chief_ops', ['admin']);
    const target = await add('gone_ops', ['support']);
    const other = await add('kept_ops', ['support']);
    expect(
      (await h.app.inject({ method: 'POST', url: `/api/ops/operators/${admin.id}/disable`, ...as(admin.cookie) }))
        .statusCode,
    ).toBe(403);
    expect(
      (await h.app.inject({ method: 'POST', url: `/api/ops/operators/${target.id}/disable`, ...as(admin.cookie) }))
        .statusCode,
    ).toBe(204);
    expect(await whoIs(target.cookie)).toBeNull();
    expect((await signIn(operatorSignInBody(target, h.clock.now()))).statusCode).toBe(401);
    const ended = await h.app.inject({
      method: 'POST',
      url: `/api/ops/operators/${other.id}/sessions/end`,
      ...as(admin.cookie),
    });
    expect(ended.json()).toEqual({ ended: 1 });
    expect(await whoIs(other.cookie)).toBeNull();
    const user = await registerUser(h);
    const me = () => h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
    expect((await me()).statusCode).toBe(200);
    const endUser = await h.app.inject({
      method: 'POST',
      url: `/api/ops/users/${user.user.id}/sessions/end`,
      ...as(admin.cookie),
    });
    expect(endUser.json()).toEqual({ ended: 1 });
    expect((await me()).statusCode).toBe(401);
    const audit = (await listAudit(h.db, { userId: user.user.id })).map((e) => e.event);
    expect(audit).toContain('user_sessions_ended_by_operator');
  });
});
