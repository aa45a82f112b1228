import { describe, expect, it } from 'vitest';
import { type Harness, nextIp, registerUser, useAuthHarness } from '../auth/test-helpers.ts';

/** Issue 31: the anti-phishing phrase is security data: set, changed or removed only after a fresh proof. */
const h: Harness = useAuthHarness();

const put = (cookie: string, phrase: string | null) =>
  h.app.inject({
    method: 'PUT',
    url: '/api/me/security/anti-phishing',
    remoteAddress: nextIp(),
    headers: { cookie },
    payload: { phrase },
  });
const read = async (cookie: string) =>
  (await h.app.inject({ method: 'GET', url: '/api/me/security/anti-phishing', headers: { cookie } })).json().phrase;

describe('anti-phishing phrase', () => {
  it('needs a re-authentication within 5 minutes to set, change or remove it', async () => {
    const user = await registerUser(h);
    expect(await read(user.cookie)).toBeNull();
    expect((await put(user.cookie, 'Blue Kettle 42')).statusCode).toBe(200);
    expect(await read(user.cookie)).toBe('Blue Kettle 42');

    h.clock.advance(5 * 60_000 + 1_000);
    for (const phrase of ['Phisher Phrase', null]) {
      const refused = await put(user.cookie, phrase);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('REAUTH_REQUIRED');
    }
    expect(await read(user.cookie)).toBe('Blue Kettle 42');

    const reauth = await h.app.inject({
      method: 'POST',
      url: '/api/me/security/reauth',
      remoteAddress: nextIp(),
      headers: { cookie: user.cookie },
      payload: { password: user.password },
    });
    expect(reauth.statusCode).toBe(204);
    expect((await put(user.cookie, '<b>bold</b>')).json().code).toBe('VALIDATION_FAILED');
    expect((await put(user.cookie, 'abc')).json().code).toBe('VALIDATION_FAILED');
    expect((await put(user.cookie, '  Red Lamp 7  ')).json().phrase).toBe('Red Lamp 7');
    expect((await put(user.cookie, null)).json().phrase).toBeNull();
    expect(await read(user.cookie)).toBeNull();
    const audit = await h.db
      .selectFrom('audit_events')
      .select('event')
      .where('user_id', '=', user.user.id)
      .where('event', '=', 'anti_phishing_set')
      .execute();
    expect(audit).toHaveLength(3);
  });
});
