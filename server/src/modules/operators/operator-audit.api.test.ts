import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { createPasswordHasher } from '../auth/password-hashing.ts';
import { nextIp, useAuthHarness } from '../auth/test-helpers.ts';
import { createOperatorsService } from './service.ts';

/**
 * Issue 38 item 9: a new operator password did not end the operator's sessions (a stolen console
 * session outlived the change); operator sign-ins and announcement withdrawals left no audit record.
 */
const h = useAuthHarness();
const PASSWORD = 'Ops-Pass-2030';

async function addOperator(name: string) {
  const hasher = createPasswordHasher({ concurrency: 1 });
  try {
    const service = createOperatorsService({ db: h.db, now: h.clock.now, hasher });
    await service.add(name, PASSWORD);
    return service;
  } finally {
    await hasher.close();
  }
}

const signIn = (name: string, password: string) =>
  h.app.inject({ method: 'POST', url: '/api/ops/session', remoteAddress: nextIp(), payload: { name, password } });
const cookieOf = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie']).split(';')[0] as string;
const operatorEvents = async () =>
  (await listAudit(h.db)).filter((e) => e.event.startsWith('operator_') || e.event.startsWith('announcement_'));

describe('operators', () => {
  it('a new password ends every session of the operator', async () => {
    await addOperator('pw_ops');
    const cookie = cookieOf(await signIn('pw_ops', PASSWORD));
    const check = () => h.app.inject({ method: 'GET', url: '/api/ops/session', headers: { cookie } });
    expect((await check()).json().operator).toMatchObject({ name: 'pw_ops' });
    const hasher = createPasswordHasher({ concurrency: 1 });
    try {
      await createOperatorsService({ db: h.db, now: h.clock.now, hasher }).setPassword('pw_ops', 'Other-Pass-2031');
    } finally {
      await hasher.close();
    }
    expect((await check()).json().operator).toBeNull();
    expect(
      (await operatorEvents()).some((e) => e.event === 'operator_password_set' && e.details.operator === 'pw_ops'),
    ).toBe(true);
  });

  it('sign-ins, failed ones and announcement withdrawals are audited with the operator', async () => {
    await addOperator('audit_ops');
    expect((await signIn('audit_ops', 'Wrong-Pass-1')).statusCode).toBe(401);
    const cookie = cookieOf(await signIn('audit_ops', PASSWORD));
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
      'operator_sign_in_failed',
      'operator_signed_in',
      'announcement_withdrawn',
    ]);
    expect(events[2]?.details).toMatchObject({ announcementId: id });
    expect(events[0]?.ip).toMatch(/^10\./);
  });
});
