import { describe, expect, it } from 'vitest';
import { nextIp, registerUser, useAuthHarness } from '../auth/test-helpers.ts';

// User mail goes only to support and the user's own address (issue 38 item 6).
const SUPPORT = 'support@example.org';
const h = useAuthHarness({ mailDailyLimit: 3, supportEmail: SUPPORT });

type Account = Awaited<ReturnType<typeof registerUser>>;
const send = (account: Account, payload: object) =>
  h.app.inject({
    method: 'POST',
    url: '/api/mail/messages',
    remoteAddress: nextIp(),
    headers: { cookie: account.cookie },
    payload,
  });
const get = (account: Account, url: string) =>
  h.app.inject({ method: 'GET', url, headers: { cookie: account.cookie } });

async function settled(account: Account, id: string) {
  for (let i = 0; i < 100; i++) {
    const mail = (await get(account, `/api/mail/messages/${id}`)).json();
    if (mail.state !== 'queued') return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('mail still queued');
}

describe('a user sends e-mail from the app', () => {
  it('goes out over SMTP from the service with Reply-To the user; the record says sent', async () => {
    const account = await registerUser(h);
    const before = h.sink.messages.length;
    const res = await send(account, {
      recipients: [account.email.toUpperCase(), 'Support@Example.org', account.email],
      subject: 'Hello from the wallet',
      body: 'Line one\nLine two',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ state: 'queued', recipients: [account.email, SUPPORT] });
    const mail = await h.sink.waitFor(SUPPORT, { after: before });
    expect(mail.to.sort()).toEqual([account.email, SUPPORT].sort());
    expect(mail.raw).toMatch(new RegExp(`^Reply-To: ${account.email}\\r?$`, 'mi'));
    expect(mail.raw).toMatch(/^From: .*no-reply@localhost/im);
    expect(mail.raw).toContain('Line one');
    const record = await settled(account, res.json().id);
    expect(record).toMatchObject({ state: 'sent', failureReason: null });
    expect(record.sentAt).not.toBeNull();
    const list = (await get(account, '/api/mail/messages')).json();
    expect(list.items.map((m: { id: string }) => m.id)).toEqual([res.json().id]);
  });

  it('refuses header injection, bad recipients and too many of them; nothing is queued', async () => {
    const account = await registerUser(h);
    const queued = async () => (await get(account, '/api/mail/messages')).json().items.length;
    for (const [payload, field] of [
      [{ recipients: ['a@example.com'], subject: 'Hi\r\nBcc: victim@example.com', body: 'x' }, 'subject'],
      [{ recipients: ['a@example.com'], subject: 'Hi\nthere', body: 'x' }, 'subject'],
      [{ recipients: ['not-an-address'], subject: 'Hi', body: 'x' }, 'recipients.0'],
      [{ recipients: ['a@example.com\r\nBcc: v@example.com'], subject: 'Hi', body: 'x' }, 'recipients.0'],
      [
        { recipients: ['1@x.io', '2@x.io', '3@x.io', '4@x.io', '5@x.io', '6@x.io'], subject: 'Hi', body: 'x' },
        'recipients',
      ],
      [{ recipients: ['a@example.com'], subject: 'x'.repeat(201), body: 'x' }, 'subject'],
      [{ recipients: ['a@example.com'], subject: 'Hi', body: 'x'.repeat(10_001) }, 'body'],
    ] as const) {
      const res = await send(account, payload);
      expect({ field, status: res.statusCode, code: res.json().code }).toEqual({
        field,
        status: 400,
        code: 'VALIDATION_FAILED',
      });
      expect(res.json().details[0].field).toBe(field);
    }
    expect(await queued()).toBe(0);
  });

  it('a permanent SMTP refusal fails the record at once with the reason; sending again makes a new record', async () => {
    const account = await registerUser(h);
    h.sink.rejectRecipient(account.email);
    const res = await send(account, { recipients: [account.email], subject: 'Hi', body: 'x' });
    const failed = await settled(account, res.json().id);
    expect(failed.state).toBe('failed');
    expect(failed.failureReason).toMatch(/550|No such mailbox/);
    const again = await h.app.inject({
      method: 'POST',
      url: `/api/mail/messages/${res.json().id}/resend`,
      headers: { cookie: account.cookie },
    });
    expect(again.statusCode).toBe(201);
    expect(again.json()).toMatchObject({ resentFrom: res.json().id, state: 'queued' });
    expect(again.json().id).not.toBe(res.json().id);
  });

  it('a daily limit per user, with the wait; another user is not affected; others cannot read the records', async () => {
    const account = await registerUser(h);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await send(account, { recipients: [SUPPORT], subject: `#${i}`, body: 'x' })).json().id);
    const over = await send(account, { recipients: [SUPPORT], subject: '#4', body: 'x' });
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'MAIL_DAILY_LIMIT', details: { limit: 3 } });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(86_000);
    const other = await registerUser(h);
    expect((await send(other, { recipients: [SUPPORT], subject: 'ok', body: 'x' })).statusCode).toBe(201);
    expect((await get(other, `/api/mail/messages/${ids[0]}`)).statusCode).toBe(404);
  });
});
