import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { nextIp, useAuthHarness } from '../auth/test-helpers.ts';
import { runOperatorsCommand } from './ops-commands.ts';
import { addTestOperator, operatorSignInBody } from './test-helpers.ts';

/**
 * Issue 38 item 9: a new operator credential did not end the operator's sessions (a stolen console
 * session outlived the change); operator sign-ins and announcement withdrawals left no audit record.
 * Since issue 32 the credential is reset by a new enrolment link (password and app together).
 */
const h = useAuthHarness();

const addOperator = (name: string) => addTestOperator(h.app, { db: h.db, now: h.clock.now }, name);

const signIn = (body: { name: string; password: string; totpCode: string }) =>
  h.app.inject({ method: 'POST', url: '/api/ops/session', remoteAddress: nextIp(), payload: body });
const cookieOf = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie']).split(';')[0] as string;
const operatorEvents = async () =>
  (await listAudit(h.db)).filter((e) => e.event.startsWith('operator_') || e.event.startsWith('announcement_'));

describe('operators', () => {
  it('a new enrolment link ends every session of the operator and voids the old password and app', async () => {
    const operator = await addOperator('pw_ops');
    const cookie = cookieOf(await signIn(operatorSignInBody(operator, h.clock.now())));
    const check = () => h.app.inject({ method: 'GET', url: '/api/ops/session', headers: { cookie } });
    expect((await check()).json().operator).toMatchObject({ name: 'pw_ops' });
    expect(await runOperatorsCommand(h.db, ['enrol', 'pw_ops'], () => {}, 'http://x/ops/')).toBe(0);
    expect((await check()).json().operator).toBeNull();
    h.clock.advance(90_000);
    expect((await signIn(operatorSignInBody(operator, h.clock.now(), 0))).statusCode).toBe(401);
    expect(
      (await operatorEvents()).some((e) => e.event === 'operator_enrolment_issued' && e.details.operator === 'pw_ops'),
    ).toBe(true);
  });

  it('sign-ins, failed ones and announcement withdrawals are audited with the operator', async () => {
    const operator = await addOperator('audit_ops');
    const body = operatorSignInBody(operator, h.clock.now());
    expect((await signIn({ ...body, password: 'Wrong-Pass-1' })).statusCode).toBe(401);
    const cookie = cookieOf(await signIn(body));
    const published = await h.app.inject({
      method: 'POST',
      url: '/api/ops/announcements',
      headers: { cookie },
      payload: { category: 'news', texts: { 'zh-CN': { title: '标题', bodyMd: '正文' } } },
    });
    expect(published.statusCode, published.body).toBe(201);
    const id = published.json().id as string;
    const withdrawn = await h.app.inject({
      method: 'POST',
      url: `/api/ops/announcements/${id}/withdraw`,
      headers: { cookie },
    });
    expect(withdrawn.statusCode).toBe(204);
    const events = (await operatorEvents()).filter(
      (e) => e.details.operator === 'audit_ops' || e.details.name === 'audit_ops',
    );
    expect(events.map((e) => e.event)).toEqual([
      'operator_added',
      'operator_enrolled',
      'operator_signed_in',
      'operator_sign_in_failed',
      'operator_signed_in',
      'announcement_withdrawn',
    ]);
    expect(events[5]?.details).toMatchObject({ announcementId: id });
    expect(events[3]?.ip).toMatch(/^10\./);
  });
});
