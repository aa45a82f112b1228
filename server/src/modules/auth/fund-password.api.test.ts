import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { receiveCode, registerUser, useAuthHarness } from './test-helpers.ts';

const h = useAuthHarness();

async function setFund(cookie: string, body: Record<string, string>) {
  return h.app.inject({ method: 'POST', url: '/api/me/fund-password', headers: { cookie }, payload: body });
}
async function verifyFund(cookie: string, fundPassword: string) {
  return h.app.inject({
    method: 'POST',
    url: '/api/me/fund-password/verify',
    headers: { cookie },
    payload: { fundPassword },
  });
}

/** Moves the clock while the user stays active (sessions idle out after 30 minutes). */
async function advanceActive(cookie: string, ms: number) {
  for (let left = ms; left > 0; left -= 10 * 60_000) {
    h.clock.advance(Math.min(left, 10 * 60_000));
    await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
  }
}

describe('fund password', () => {
  it('is set with an e-mail code, then changed with another one', async () => {
    const account = await registerUser(h);
    expect((await verifyFund(account.cookie, '739164')).json().code).toBe('FUND_PASSWORD_NOT_SET');

    const code = await receiveCode(h, { purpose: 'fund_password', cookie: account.cookie, to: account.email });
    expect(
      (await setFund(account.cookie, { code, fundPassword: '12345', confirmFundPassword: '12345' })).json(),
    ).toMatchObject({
      code: 'VALIDATION_FAILED',
      details: [{ field: 'fundPassword', rule: 'format' }],
    });
    expect(
      (await setFund(account.cookie, { code, fundPassword: '739164', confirmFundPassword: '739165' })).json().code,
    ).toBe('PASSWORD_MISMATCH');
    for (const guessable of ['123456', '000000', '121212', '654321'])
      expect(
        (await setFund(account.cookie, { code, fundPassword: guessable, confirmFundPassword: guessable })).json(),
      ).toMatchObject({ code: 'GUESSABLE_FUND_PASSWORD', details: [{ field: 'fundPassword', rule: 'guessable' }] });
    expect(
      (
        await setFund(account.cookie, {
          code: code === '000000' ? '111111' : '000000',
          fundPassword: '739164',
          confirmFundPassword: '739164',
        })
      ).json().code,
    ).toBe('WRONG_VERIFICATION_CODE');
    expect(
      (await setFund(account.cookie, { code, fundPassword: '739164', confirmFundPassword: '739164' })).statusCode,
    ).toBe(204);
    const me = await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: account.cookie } });
    expect(me.json().hasFundPassword).toBe(true);
    expect((await verifyFund(account.cookie, '739164')).statusCode).toBe(204);

    h.clock.advance(61_000);
    const code2 = await receiveCode(h, { purpose: 'fund_password', cookie: account.cookie, to: account.email });
    expect(
      (await setFund(account.cookie, { code: code2, fundPassword: '861924', confirmFundPassword: '861924' }))
        .statusCode,
    ).toBe(204);
    expect((await verifyFund(account.cookie, '739164')).json().code).toBe('WRONG_FUND_PASSWORD');
    expect((await verifyFund(account.cookie, '861924')).statusCode).toBe(204);
    const events = (await listAudit(h.db, { userId: account.user.id })).map((e) => e.event);
    expect(events).toEqual(
      expect.arrayContaining(['fund_password_set', 'fund_password_changed', 'fund_password_failed']),
    );
  });

  it('locks for an hour after 5 wrong tries within an hour', async () => {
    const account = await registerUser(h);
    const code = await receiveCode(h, { purpose: 'fund_password', cookie: account.cookie, to: account.email });
    await setFund(account.cookie, { code, fundPassword: '246810', confirmFundPassword: '246810' });
    const left: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await verifyFund(account.cookie, '000000');
      expect(res.statusCode).toBe(400);
      left.push(res.json().details.attemptsLeft);
    }
    expect(left).toEqual([4, 3, 2, 1]);
    const fifth = await verifyFund(account.cookie, '000000');
    expect(fifth.statusCode).toBe(423);
    expect(fifth.json()).toMatchObject({ code: 'FUND_PASSWORD_LOCKED', details: { retryAfterSeconds: 3600 } });
    await advanceActive(account.cookie, 30 * 60_000);
    const stillLocked = await verifyFund(account.cookie, '246810');
    expect(stillLocked.json()).toMatchObject({ code: 'FUND_PASSWORD_LOCKED', details: { retryAfterSeconds: 1800 } });
    await advanceActive(account.cookie, 30 * 60_000);
    expect((await verifyFund(account.cookie, '246810')).statusCode).toBe(204);
    expect((await listAudit(h.db, { userId: account.user.id })).map((e) => e.event)).toContain('fund_password_locked');
  });

  it('spreads over more than an hour do not lock', async () => {
    const account = await registerUser(h);
    const code = await receiveCode(h, { purpose: 'fund_password', cookie: account.cookie, to: account.email });
    await setFund(account.cookie, { code, fundPassword: '135790', confirmFundPassword: '135790' });
    for (let i = 0; i < 4; i += 1) await verifyFund(account.cookie, '000000');
    await advanceActive(account.cookie, 61 * 60_000);
    expect((await verifyFund(account.cookie, '000000')).json()).toMatchObject({
      code: 'WRONG_FUND_PASSWORD',
      details: { attemptsLeft: 4 },
    });
  });

  it('needs a session', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/me/fund-password/verify',
      payload: { fundPassword: '739164' },
    });
    expect(res.statusCode).toBe(401);
  });
});
