import { describe, expect, it } from 'vitest';
import { nextIp, useAuthHarness } from '../auth/test-helpers.ts';
import { addTestOperator, operatorSignInBody, TEST_OPERATOR_PASSWORD } from './test-helpers.ts';

/**
 * Review 32a, finding 11: an outsider who fails as `alice` five times locked her out for up to an
 * hour, even with her password and code. The name lock now lets through a request within its IP's
 * budget that shows the current authenticator code; the password still decides, quietly.
 */
const h = useAuthHarness();
const deps = () => ({ db: h.db, now: h.clock.now });
const signIn = (payload: object, ip = nextIp()) =>
  h.app.inject({ method: 'POST', url: '/api/ops/session', remoteAddress: ip, payload });

describe('operator name lock-out', () => {
  it('an outsider locks the name; the operator with the current code still gets in; guessers learn nothing', async () => {
    const op = await addTestOperator(h.app, deps(), 'lock_alice', ['finance']);
    const wrong = { name: op.name, password: 'not-her-password-1', totpCode: '000000' };
    let last = 0;
    for (let i = 0; i < 12 && last !== 429; i++) last = (await signIn(wrong)).statusCode;
    expect(last).toBe(429); // the name is locked (each try from a fresh IP)
    // Failure first: a wrong code, or the right code with a wrong password, answer alike: throttled.
    const good = operatorSignInBody(op, h.clock.now());
    const badCode = good.totpCode === '123456' ? '654321' : '123456';
    expect((await signIn({ ...good, totpCode: badCode })).statusCode).toBe(429);
    expect((await signIn({ ...good, password: 'not-her-password-2' })).statusCode).toBe(429);
    // The operator, with password and the current code, from a fresh IP.
    const ok = await signIn({ ...good, password: TEST_OPERATOR_PASSWORD });
    expect(ok.statusCode, ok.body).toBe(200);
    // Her success cleared the name's lock; the code was spent, so a replay fails plainly.
    expect((await signIn(good)).json().code).toBe('INVALID_CREDENTIALS');
  });

  it('the lane needs the IP budget too: an IP out of budget is refused even with a valid code', async () => {
    const op = await addTestOperator(h.app, deps(), 'lock_bob', ['support']);
    const ip = nextIp();
    let last = 0;
    for (let i = 0; i < 40 && last !== 429; i++)
      last = (await signIn({ name: `nobody_${i}`, password: 'x-wrong-password', totpCode: '000000' }, ip)).statusCode;
    expect(last).toBe(429);
    expect((await signIn(operatorSignInBody(op, h.clock.now()), ip)).statusCode).toBe(429);
  });
});
