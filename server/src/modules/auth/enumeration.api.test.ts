import { describe, expect, it } from 'vitest';
import {
  login,
  nextIp,
  receiveCode,
  registerUser,
  requestCode,
  STRONG_PASSWORD,
  uniqueUser,
  useAuthHarness,
} from './test-helpers.ts';

/**
 * Issue 38 item 10: registration answered EMAIL_EXISTS / USERNAME_EXISTS before checking the code and
 * before any limit (free enumeration of addresses); and the login throttle key of a known account
 * differed from an unknown name's, so locking it through the e-mail showed whether a user name was
 * the same account.
 */
const h = useAuthHarness();

const register = (over: Record<string, unknown>) =>
  h.app.inject({
    method: 'POST',
    url: '/api/auth/register',
    remoteAddress: nextIp(),
    payload: {
      country: 'CN',
      password: STRONG_PASSWORD,
      confirmPassword: STRONG_PASSWORD,
      agreementAccepted: true,
      ...over,
    },
  });

describe('registration does not enumerate accounts for free', () => {
  it('asking codes for registered addresses counts in the per-IP code limit', async () => {
    const ip = nextIp();
    const answers: string[] = [];
    for (let i = 0; i < 12; i++) {
      const taken = await registerUser(h);
      h.clock.advance(61_000); // past the per-address resend wait of its own registration
      answers.push((await requestCode(h, { email: taken.email, purpose: 'register', ip })).json().code);
    }
    expect(answers.slice(0, 10).every((c) => c === 'EMAIL_EXISTS')).toBe(true);
    expect(answers.slice(10)).toEqual(['CODE_RATE_LIMITED', 'CODE_RATE_LIMITED']);
  }, 120_000);

  it('a register without a right code answers about the code, whether or not the e-mail or name is taken', async () => {
    const taken = await registerUser(h);
    const fresh = uniqueUser();
    const takenEmail = await register({ username: fresh.username, email: taken.email, code: '123456' });
    const takenName = await register({ username: taken.username, email: fresh.email, code: '123456' });
    const neither = await register({ username: fresh.username, email: fresh.email, code: '123456' });
    expect(neither.json().code).toBe('VERIFICATION_CODE_NOT_REQUESTED');
    // (A registered address has had a code, used up: the code's answer, never EMAIL_EXISTS.)
    expect(takenEmail.json().code).toMatch(/^VERIFICATION_CODE_(EXPIRED|NOT_REQUESTED)$/);
    expect(takenName.json().code).toBe(neither.json().code);
    // With the right code the answer may say so.
    const code = await receiveCode(h, { email: fresh.email, purpose: 'register' });
    expect((await register({ username: taken.username, email: fresh.email, code })).json().code).toBe(
      'USERNAME_EXISTS',
    );
  });
});

describe('the login throttle does not link an e-mail to a user name', () => {
  it('an account locked through its e-mail answers through its user name as an unknown name does', async () => {
    const account = await registerUser(h);
    // A stranger's browser: the owner's known browser has a counter of its own (login-steps.ts), and who
    // holds its device cookie knows the account already.
    const stranger = { device: null };
    for (let i = 0; i < 6; i++) await login(h, account.email, 'Wrong-Pass-1', undefined, stranger);
    expect((await login(h, account.email, 'Wrong-Pass-1', undefined, stranger)).statusCode).toBe(429);
    const byName = await login(h, account.username, 'Wrong-Pass-1', undefined, stranger);
    const unknown = await login(h, `${account.username}_x`, 'Wrong-Pass-1', undefined, stranger);
    expect(unknown.json().code).toBe('INVALID_CREDENTIALS');
    expect(byName.statusCode).toBe(unknown.statusCode);
    expect(byName.json().code).toBe(unknown.json().code);
  });
});
