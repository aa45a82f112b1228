import { describe, expect, it } from 'vitest';
import { nextIp, useAuthHarness } from '../auth/test-helpers.ts';
import { totpCode } from '../security/totp.ts';
import { type Actor, createOperatorAccounts } from './accounts-service.ts';
import { addTestOperator, TEST_OPERATOR_PASSWORD } from './test-helpers.ts';

/**
 * Review 32a, findings 3, 5 and 8, the edges: who issued an enrolment link (migration 0094) decides
 * whether it is honoured and what may be granted on it; each admin action re-reads its actor.
 */
const h = useAuthHarness();
const deps = () => ({ db: h.db, now: h.clock.now });
const accounts = () => createOperatorAccounts(deps());
const cli: Actor = { kind: 'cli' };
const asActor = (o: { id: string; name: string }): Actor => ({
  kind: 'operator',
  operatorId: o.id,
  name: o.name,
  ip: '10.9.9.9',
});

async function consoleAdd(cookie: string, name: string) {
  const added = await h.app.inject({
    method: 'POST',
    url: '/api/ops/operators',
    headers: { cookie },
    payload: { name, roles: ['support'] },
  });
  expect(added.statusCode, added.body).toBe(201);
  return added.json() as { id: string; enrolmentToken: string };
}

async function enrol(token: string): Promise<number> {
  const start = await h.app.inject({ method: 'POST', url: '/api/ops/enrolment/start', payload: { token } });
  if (start.statusCode !== 200) return start.statusCode;
  const { secret } = start.json() as { secret: string };
  const finish = await h.app.inject({
    method: 'POST',
    url: '/api/ops/enrolment/finish',
    remoteAddress: nextIp(),
    payload: { token, password: TEST_OPERATOR_PASSWORD, totpCode: totpCode(secret, h.clock.now()) },
  });
  return finish.statusCode;
}

describe('enrolment links and who issued them', () => {
  it('start is idempotent within a link: a reload or another holder gets the same secret, which finishes', async () => {
    const { token } = await accounts().add(cli, 'iss_reload', ['support']);
    const start = () => h.app.inject({ method: 'POST', url: '/api/ops/enrolment/start', payload: { token } });
    const [first, second] = await Promise.all([start(), start()]);
    const secret = (first.json() as { secret: string }).secret;
    expect((second.json() as { secret: string }).secret).toBe(secret);
    expect((await start()).json()).toMatchObject({ secret });
    expect(await enrol(token)).toBe(200);
    expect((await start()).statusCode).toBe(401); // spent
  });

  it('a CLI grant of compliance or admin onto a console-enrolled account is refused until the CLI re-enrols it', async () => {
    const admin = await addTestOperator(h.app, deps(), 'iss_admin', ['admin']);
    const { id, enrolmentToken } = await consoleAdd(admin.cookie, 'iss_helper');
    expect(await enrol(enrolmentToken)).toBe(200);
    await expect(accounts().setRoles(cli, id, ['support', 'compliance'])).rejects.toThrow(/enrolled through a link/);
    await expect(accounts().setRoles(cli, id, ['finance'])).rejects.toThrow(/enrolled through a link/);
    // Support stays grantable either way; a fresh CLI link makes the account the CLI's.
    await accounts().setRoles(cli, id, ['support']);
    const relinked = await accounts().reenrol(cli, { id });
    await accounts().setRoles(cli, id, ['support', 'compliance']);
    expect(await enrol(relinked.token)).toBe(200);
  });

  it('taking admin away voids the links that admin issued; a link from a still-enabled admin works', async () => {
    const a = await addTestOperator(h.app, deps(), 'iss_a', ['admin']);
    const b = await addTestOperator(h.app, deps(), 'iss_b', ['admin']);
    const fromA = await consoleAdd(a.cookie, 'iss_from_a');
    const fromB = await consoleAdd(b.cookie, 'iss_from_b');
    await accounts().setRoles(cli, a.id, ['support']);
    expect(await enrol(fromA.enrolmentToken)).toBe(401);
    expect(await enrol(fromB.enrolmentToken)).toBe(200);
  });

  it('a console re-enrolment of an admin or compliance colleague is refused (the link holder becomes them)', async () => {
    const a = await addTestOperator(h.app, deps(), 'iss_relink_a', ['admin']);
    const victim = await addTestOperator(h.app, deps(), 'iss_victim', ['compliance']);
    const relink = await h.app.inject({
      method: 'POST',
      url: `/api/ops/operators/${victim.id}/enrolment`,
      headers: { cookie: a.cookie },
    });
    expect(relink.statusCode).toBe(403);
  });

  it('an admin disabled meanwhile cannot act (the actor is re-read in the transaction)', async () => {
    const a = await addTestOperator(h.app, deps(), 'iss_late_a', ['admin']);
    const b = await addTestOperator(h.app, deps(), 'iss_late_b', ['support']);
    const actor = asActor(a); // as the guard saw it, before the disable
    await accounts().disable(cli, a.id);
    await expect(accounts().reenrol(actor, { id: b.id })).rejects.toThrow(/no longer an enabled admin/);
    await expect(accounts().setRoles(actor, b.id, [])).rejects.toThrow(/no longer an enabled admin/);
    await expect(accounts().add(actor, 'iss_late_c', ['support'])).rejects.toThrow(/no longer an enabled admin/);
  });

  it('two admins racing (A disables B while B issues a link): no link of B survives, whatever the order', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await addTestOperator(h.app, deps(), `race_a${round}`, ['admin', 'support']);
      const b = await addTestOperator(h.app, deps(), `race_b${round}`, ['admin']);
      // B re-enrols a support colleague (admin accounts are re-enrolled from the CLI only): either B's
      // action sees itself disabled, or A's disable, committing after it, voids B's new link.
      const target = await addTestOperator(h.app, deps(), `race_t${round}`, ['support']);
      const [, relinked] = await Promise.allSettled([
        accounts().disable(asActor(a), b.id),
        accounts().reenrol(asActor(b), { id: target.id }),
      ]);
      if (relinked.status === 'fulfilled') expect(await enrol(relinked.value.token)).toBe(401);
      else expect(String(relinked.reason)).toMatch(/no longer an enabled admin/);
    }
  });
});
