import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { operatorCookie } from '../operators/test-helpers.ts';
import { whileLockHeld } from '../security/lock-test-helpers.ts';
import { multipart, png } from '../uploads/test-helpers.ts';

const h = useAuthHarness();

const leave = (payload: object, ip: string, cookie?: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/support/messages',
    remoteAddress: ip,
    ...(cookie ? { headers: { cookie } } : {}),
    payload,
  });

describe('leave-a-message', () => {
  it('a visitor leaves a phone with its area code (stored E.164) or an e-mail; the rules are the specification’s', async () => {
    const ok = await leave({ phoneCountry: 'CN', phone: '138 0013 8000', content: '充值没到账' }, '203.0.113.1');
    expect(ok.statusCode, ok.body).toBe(201);
    for (const [payload, field] of [
      [{ content: 'no contact' }, 'contact'],
      [{ phone: '13800138000', content: 'x' }, 'phoneCountry'],
      [{ phoneCountry: 'CN', phone: '12345', content: 'x' }, 'phone'],
      [{ email: 'not-an-address', content: 'x' }, 'email'],
      [{ email: 'me@example.com', content: '   ' }, 'content'],
    ] as const) {
      const res = await leave(payload, '203.0.113.2');
      expect({ field, status: res.statusCode, code: res.json().code, details: res.json().details?.[0]?.field }).toEqual(
        {
          field,
          status: 400,
          code: 'VALIDATION_FAILED',
          details: field,
        },
      );
    }
  });

  it('five an hour per IP, with the wait', async () => {
    for (let i = 0; i < 5; i++)
      expect((await leave({ email: 'a@example.com', content: `#${i}` }, '198.51.100.7')).statusCode).toBe(201);
    const over = await leave({ email: 'a@example.com', content: '#6' }, '198.51.100.7');
    expect(over.statusCode).toBe(429);
    expect(over.json()).toMatchObject({ code: 'SUPPORT_MESSAGE_RATE_LIMITED', details: { limit: 5 } });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3000);
    expect((await leave({ email: 'a@example.com', content: 'other network' }, '198.51.100.8')).statusCode).toBe(201);
  });

  it('an IPv6 /64 is one network: its addresses share the five', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await leave({ email: 'v6@example.com', content: `#${i}` }, `2001:db8:5:5::${i}`)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    expect((await leave({ email: 'v6@example.com', content: 'next /64' }, '2001:db8:5:6::1')).statusCode).toBe(201);
  });

  it("a queue behind one network's lock waits at most 2 s, then answers 503 and leaves nothing", async () => {
    const ip = '198.51.100.99';
    const res = await whileLockHeld(
      h.db,
      (trx) => sql`select pg_advisory_xact_lock(hashtext(${`support-ip:${ip}`}))`.execute(trx),
      () => leave({ email: 'held@example.com', content: 'behind the lock' }, ip),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    const rows = await h.db.selectFrom('support_messages').select('id').where('ip', '=', ip).execute();
    expect(rows).toEqual([]);
  });

  it('a concurrent burst from one network: exactly five are left', async () => {
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        leave({ email: 'burst@example.com', content: `burst ${i}` }, '198.51.100.77'),
      ),
    );
    expect(burst.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(burst.filter((r) => r.statusCode === 429)).toHaveLength(7);
  });

  it('an operator answers: by e-mail to the address left, and as a system notice for a signed-in writer', async () => {
    const account = await registerUser(h);
    await leave({ email: 'writer@example.com', content: 'Where is my deposit?' }, '192.0.2.10', account.cookie);
    const cookie = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'support_ops');
    const open = await h.app.inject({ method: 'GET', url: '/api/ops/support/messages', headers: { cookie } });
    const message = open.json().items.find((m: { content: string }) => m.content === 'Where is my deposit?');
    expect(message).toMatchObject({ email: 'writer@example.com', signedIn: true, answer: null });
    const before = h.sink.messages.length;
    const answered = await h.app.inject({
      method: 'POST',
      url: `/api/ops/support/messages/${message.id}/answer`,
      headers: { cookie },
      payload: { answer: 'It arrived at 10:02.' },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    const mail = await h.sink.waitFor('writer@example.com', { after: before });
    expect(mail.raw).toContain('It arrived at 10:02.');
    const notices = await h.app.inject({
      method: 'GET',
      url: '/api/notices/system',
      headers: { cookie: account.cookie },
    });
    expect(notices.json().items[0]).toMatchObject({ kind: 'support_reply', params: { messageId: message.id } });
    const twice = await h.app.inject({
      method: 'POST',
      url: `/api/ops/support/messages/${message.id}/answer`,
      headers: { cookie },
      payload: { answer: 'again' },
    });
    expect(twice.statusCode).toBe(404);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/ops/support/messages', headers: { cookie: account.cookie } }))
        .statusCode,
    ).toBe(401);
  });

  it('a visitor attaches their own pictures (owned through their cookie); someone else cannot use them; operators see them', async () => {
    const upload = async (cookie?: string) => {
      const body = multipart('shot.png', await png());
      return h.app.inject({
        method: 'POST',
        url: '/api/support/uploads',
        remoteAddress: '198.51.100.40',
        headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
        payload: body.payload,
      });
    };
    const first = await upload();
    expect(first.statusCode, first.body).toBe(201);
    const visitor = String(first.headers['set-cookie']).split(';')[0] as string;
    expect(String(first.headers['set-cookie'])).toMatch(/HttpOnly; SameSite=Strict/i);
    const second = await upload(visitor);
    const ids = [first.json().id, second.json().id];
    const stranger = await h.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      remoteAddress: '198.51.100.41',
      payload: { email: 'other@example.com', content: 'not mine', uploadIds: ids },
    });
    expect([stranger.statusCode, stranger.json().details?.[0]?.field]).toEqual([400, 'uploadIds']);
    const left = await h.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      remoteAddress: '198.51.100.40',
      headers: { cookie: visitor },
      payload: { email: 'visitor@example.com', content: 'see the pictures', uploadIds: ids },
    });
    expect(left.statusCode, left.body).toBe(201);
    const ops = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'pictures_ops');
    const queue = await h.app.inject({ method: 'GET', url: '/api/ops/support/messages', headers: { cookie: ops } });
    const message = queue.json().items.find((m: { content: string }) => m.content === 'see the pictures');
    expect(message.attachments.map((a: { id: string }) => a.id)).toEqual(ids);
    const picture = await h.app.inject({ method: 'GET', url: message.attachments[0].url, headers: { cookie: ops } });
    expect(picture.statusCode).toBe(200);
  });

  it('an operator answers with a picture: it travels as an attachment of the e-mail', async () => {
    await leave({ email: 'pictures@example.com', content: 'How do I deposit?' }, '192.0.2.77');
    const cookie = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'answer_pictures_ops');
    const open = await h.app.inject({ method: 'GET', url: '/api/ops/support/messages', headers: { cookie } });
    const message = open.json().items.find((m: { content: string }) => m.content === 'How do I deposit?');
    const body = multipart('steps.png', await png(16, 16));
    const picture = await h.app.inject({
      method: 'POST',
      url: '/api/ops/uploads?place=message',
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
    expect(picture.statusCode, picture.body).toBe(201);
    const before = h.sink.messages.length;
    const answered = await h.app.inject({
      method: 'POST',
      url: `/api/ops/support/messages/${message.id}/answer`,
      headers: { cookie },
      payload: { answer: 'Follow the steps in the picture.', uploadIds: [picture.json().id] },
    });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(answered.json().answerAttachments.map((a: { id: string }) => a.id)).toEqual([picture.json().id]);
    const mail = await h.sink.waitFor('pictures@example.com', { after: before });
    expect(mail.raw).toMatch(/Content-Disposition: attachment; filename=steps\.png/);
    expect(mail.raw).toContain('Content-Type: image/png');
  });
});
