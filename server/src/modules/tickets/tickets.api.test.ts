import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { operatorCookie } from '../operators/test-helpers.ts';
import { multipart, png } from '../uploads/test-helpers.ts';

const h = useAuthHarness();

async function picture(cookie: string, name: string, url = '/api/uploads?place=ticket') {
  const body = multipart(name, await png());
  const res = await h.app.inject({ method: 'POST', url, headers: { ...body.headers, cookie }, payload: body.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; url: string };
}

const ticketCount = async () =>
  Number(
    (
      await h.db
        .selectFrom('tickets')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('support tickets', () => {
  it('bad input changes nothing: e-mail, an order that is not yours, pictures that are not yours', async () => {
    const user = await registerUser(h);
    const other = await registerUser(h);
    const foreign = await picture(other.cookie, 'theirs.png');
    const before = await ticketCount();
    for (const [payload, field] of [
      [{ email: 'nope', description: 'help' }, 'email'],
      [{ email: 'me@example.com', description: 'help', txRef: '0xdeadbeef' }, 'txRef'],
      [{ email: 'me@example.com', description: 'help', uploadIds: [foreign.id] }, 'uploadIds'],
    ] as const) {
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { cookie: user.cookie },
        payload,
      });
      expect({ field, status: res.statusCode, got: res.json().details?.[0]?.field }).toEqual({
        field,
        status: 400,
        got: field,
      });
    }
    expect(await ticketCount()).toBe(before);
  });

  it('a user opens a ticket with two pictures, an operator replies with one: notice, e-mail, thread, follow-up', async () => {
    const user = await registerUser(h);
    const [a, b] = [await picture(user.cookie, 'one.png'), await picture(user.cookie, 'two.png')];
    const opened = await h.app.inject({
      method: 'POST',
      url: '/api/tickets',
      headers: { cookie: user.cookie },
      payload: { email: 'Writer@Example.com', description: 'My deposit has not arrived', uploadIds: [a.id, b.id] },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    const ticket = opened.json();
    expect(ticket).toMatchObject({
      state: 'pending_reply',
      email: 'writer@example.com',
      description: 'My deposit has not arrived',
    });
    expect(ticket.messages[0].attachments.map((f: { name: string }) => f.name)).toEqual(['one.png', 'two.png']);

    const ops = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'ticket_ops');
    const queue = await h.app.inject({ method: 'GET', url: '/api/ops/tickets', headers: { cookie: ops } });
    expect(queue.json().items.map((t: { id: string }) => t.id)).toContain(ticket.id);
    const theirPicture = await h.app.inject({
      method: 'GET',
      url: `/api/ops/uploads/${a.id}`,
      headers: { cookie: ops },
    });
    expect(theirPicture.statusCode).toBe(200);
    const shot = await picture(ops, 'screenshot.png', '/api/ops/uploads?place=ticket');
    const mailsBefore = h.sink.messages.length;
    const replied = await h.app.inject({
      method: 'POST',
      url: `/api/ops/tickets/${ticket.id}/messages`,
      headers: { cookie: ops },
      payload: { text: 'It arrived at 10:02, see the picture.', uploadIds: [shot.id] },
    });
    expect(replied.statusCode, replied.body).toBe(200);

    const seen = (
      await h.app.inject({ method: 'GET', url: `/api/tickets/${ticket.id}`, headers: { cookie: user.cookie } })
    ).json();
    expect(seen.state).toBe('reply_received');
    expect(seen.messages.map((m: { author: string }) => m.author)).toEqual(['user', 'operator']);
    const sent = seen.messages[1].attachments[0];
    expect(sent.url).toBe(`/api/uploads/${shot.id}`);
    expect((await h.app.inject({ method: 'GET', url: sent.url, headers: { cookie: user.cookie } })).statusCode).toBe(
      200,
    );
    const mail = await h.sink.waitFor('writer@example.com', { after: mailsBefore });
    expect(mail.raw).toContain('It arrived at 10:02');
    const notices = await h.app.inject({ method: 'GET', url: '/api/notices/system', headers: { cookie: user.cookie } });
    expect(notices.json().items[0]).toMatchObject({ kind: 'support_reply', params: { ticketId: ticket.id } });

    const again = await h.app.inject({
      method: 'POST',
      url: `/api/tickets/${ticket.id}/messages`,
      headers: { cookie: user.cookie },
      payload: { text: 'Thanks, one more question' },
    });
    expect(again.json()).toMatchObject({ state: 'pending_reply' });
    const list = await h.app.inject({ method: 'GET', url: '/api/tickets', headers: { cookie: user.cookie } });
    expect(list.json().items[0]).toMatchObject({ id: ticket.id, state: 'pending_reply' });
  });

  it('a transaction reference must be one of the user’s own (a deposit hash, any case); another user’s ticket is 404', async () => {
    const user = await registerUser(h);
    const other = await registerUser(h);
    const txHash = `0x${'ab'.repeat(32)}`;
    await h.db
      .insertInto('deposits')
      .values({
        user_id: user.user.id,
        network: 'ethereum',
        coin: 'USDT',
        tx_hash: txHash,
        output_index: 0,
        from_address: null,
        to_address: `0x${'1'.repeat(40)}`,
        chain_amount: '1000000',
        amount_minor: '1000000',
        block_number: 1,
        block_hash: `0x${'1'.padStart(64, '0')}`,
        required_confirmations: 6,
        state: 'confirming',
        reason: null,
        created_at: h.clock.now(),
        updated_at: h.clock.now(),
        completed_at: null,
      })
      .execute();
    const open = (cookie: string, txRef: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { cookie },
        payload: { email: 'writer@example.com', description: 'where is it?', txRef },
      });
    expect((await open(other.cookie, txHash)).json().details[0]).toMatchObject({ field: 'txRef', rule: 'ownership' });
    const opened = await open(user.cookie, txHash.toUpperCase().replace('0X', '0x'));
    expect(opened.statusCode, opened.body).toBe(201);
    const id = opened.json().id as string;
    expect(
      (await h.app.inject({ method: 'GET', url: `/api/tickets/${id}`, headers: { cookie: other.cookie } })).statusCode,
    ).toBe(404);
    const reply = await h.app.inject({
      method: 'POST',
      url: `/api/tickets/${id}/messages`,
      headers: { cookie: other.cookie },
      payload: { text: 'not mine' },
    });
    expect(reply.statusCode).toBe(404);
  });
});
