import { describe, expect, it } from 'vitest';
import { nextIp, registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { enqueueMail } from '../mail/outbox.ts';
import { USER_MAIL_SUBJECT_PREFIX } from './service.ts';

/**
 * Issue 38 item 6: mail a user sends leaves from our own address (it passes SPF and DKIM), so it may go
 * only to support and to the user's own address, never to a stranger it could phish.
 */
const SUPPORT = 'help@example.com';
const h = useAuthHarness({ supportEmail: SUPPORT });

type Account = Awaited<ReturnType<typeof registerUser>>;
const send = (account: Account, recipients: string[], headers: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/api/mail/messages',
    remoteAddress: nextIp(),
    headers: { cookie: account.cookie, ...headers },
    payload: { recipients, subject: 'Hello', body: 'Text' },
  });
/** Mails users wrote, queued (registration's code mails are not). */
const outboxRows = async () =>
  Number(
    (
      await h.db
        .selectFrom('outbox')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('subject', 'like', `${USER_MAIL_SUBJECT_PREFIX}%`)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("user mail goes only to support and the user's own address", () => {
  it('refuses a stranger, alone or beside allowed ones, with a translated error (the detail names support); nothing queued', async () => {
    const account = await registerUser(h);
    const before = await outboxRows();
    for (const recipients of [
      ['victim@example.org'],
      [SUPPORT, 'victim@example.org'],
      [account.email, 'x@example.net'],
    ]) {
      const res = await send(account, recipients);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'MAIL_RECIPIENT_NOT_ALLOWED', details: [{ rule: 'allowed' }] });
      expect(res.json().details[0].message).toContain(SUPPORT);
    }
    // Another user's address is a stranger too.
    const other = await registerUser(h);
    expect((await send(account, [other.email])).json().code).toBe('MAIL_RECIPIENT_NOT_ALLOWED');
    expect(await outboxRows()).toBe(before);
    const list = await h.app.inject({ method: 'GET', url: '/api/mail/messages', headers: { cookie: account.cookie } });
    expect(list.json().items).toEqual([]);
  });

  it('sends to support and to the own address, in any letter case', async () => {
    const account = await registerUser(h);
    const res = await send(account, [SUPPORT.toUpperCase(), account.email.toUpperCase()]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().recipients.sort()).toEqual([SUPPORT, account.email].sort());
  });

  it('a failed mail to a stranger from before the rule is not sent again', async () => {
    const account = await registerUser(h);
    const at = new Date();
    const outboxId = await enqueueMail(
      h.db,
      { to: 'victim@example.org', subject: `${USER_MAIL_SUBJECT_PREFIX}old`, text: 'old' },
      at,
    );
    await h.db.updateTable('outbox').set({ failed_at: at }).where('id', '=', outboxId).execute();
    const row = await h.db
      .insertInto('user_mails')
      .values({
        user_id: account.user.id,
        recipients: ['victim@example.org'],
        subject: 'old',
        body: 'old',
        outbox_id: outboxId,
        resent_from: null,
        created_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const before = await outboxRows();
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/mail/messages/${row.id}/resend`,
      headers: { cookie: account.cookie },
    });
    expect(res.json()).toMatchObject({ code: 'MAIL_RECIPIENT_NOT_ALLOWED' });
    expect(await outboxRows()).toBe(before);
  });
});
