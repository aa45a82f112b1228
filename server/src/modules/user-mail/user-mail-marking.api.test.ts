import { describe, expect, it } from 'vitest';
import { nextIp, registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { USER_MAIL_SUBJECT_PREFIX } from './service.ts';

/**
 * Issue 38 item 6 (part): mail a user sends goes out from our own address, so it must not pass for
 * ours (a code or withdrawal mail): a fixed subject prefix, a header block naming the sending account
 * before the text, plain text only, and links that a mail client will not make clickable.
 */
// The one stranger-looking recipient allowed: support (user mail goes nowhere else, item 6).
const SUPPORT = 'victim@example.org';
const h = useAuthHarness({ supportEmail: SUPPORT });

describe('mail a user sends is marked as user-sent', () => {
  it('subject prefix, a header block naming the account, links defanged', async () => {
    const account = await registerUser(h);
    const before = h.sink.messages.length;
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/mail/messages',
      remoteAddress: nextIp(),
      headers: { cookie: account.cookie },
      payload: {
        recipients: ['victim@example.org'],
        subject: 'Your withdrawal code',
        body: 'Your code is 123456. Confirm at https://evil.example/login or www.evil.example now.',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await h.sink.waitFor('victim@example.org', { after: before });
    // Unfolded headers, soft line breaks of quoted-printable joined.
    const raw = mail.raw.replace(/\r?\n[ \t]+/g, ' ').replace(/=\r?\n/g, '');
    expect(raw).toContain(`Subject: ${USER_MAIL_SUBJECT_PREFIX}Your withdrawal code`);
    expect(raw).toContain(account.username);
    expect(raw).not.toContain('https://evil.example');
    expect(raw).not.toContain('www.evil.example');
    expect(raw).not.toMatch(/^Content-Type: text\/html/im);
  });
});

describe('user mail counts per IP as well as per account', () => {
  const limited = useAuthHarness({ mailDailyLimit: 3, supportEmail: 'someone@example.org' });
  it('a fourth mail from one IP in 24 h is refused even from a fresh account', async () => {
    const ip = nextIp();
    const answers: number[] = [];
    for (let i = 0; i < 4; i++) {
      const account = await registerUser(limited);
      const res = await limited.app.inject({
        method: 'POST',
        url: '/api/mail/messages',
        remoteAddress: ip,
        headers: { cookie: account.cookie },
        payload: { recipients: ['someone@example.org'], subject: 'Hi', body: 'Hello' },
      });
      answers.push(res.statusCode);
      if (i === 3) expect(res.json()).toMatchObject({ code: 'MAIL_DAILY_LIMIT', details: { limit: 3 } });
    }
    expect(answers).toEqual([201, 201, 201, 429]);
  }, 60_000);
});
