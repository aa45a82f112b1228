import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { TEST_CONSOLE_ORIGIN, testConsoleSurface } from '../../test/app.ts';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { operatorCookie } from '../operators/test-helpers.ts';
import { multipart } from '../uploads/test-helpers.ts';
import { openEventStream, type SseEvent } from './sse-client.ts';

const h = useAuthHarness();
let base = '';
beforeAll(async () => {
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});

// The operator API answers the console's origin only (issue 38 item 5): its POSTs come from there, as
// a browser on the console would send them (this app's listener stands in for the console's here).
const fromConsole = { origin: TEST_CONSOLE_ORIGIN, 'sec-fetch-site': 'same-origin' };
const post = (url: string, cookie: string, body: object) =>
  fetch(`${base}${url}`, {
    method: 'POST',
    headers: {
      cookie,
      'content-type': 'application/json',
      ...(url.startsWith('/api/ops') ? fromConsole : { origin: base }),
    },
    body: JSON.stringify(body),
  });

async function until<T>(read: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const messagesOf = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === 'message')
    .map((e) => JSON.parse(e.data) as { id: string; text: string; author: string });

describe('live chat', () => {
  it('both sides see each other’s messages, typing and read marks; a dropped stream resumes without loss or duplicates', async () => {
    const user = await registerUser(h);
    const ops = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'chat_ops');
    const userEvents: SseEvent[] = [];
    const opsEvents: SseEvent[] = [];
    const userStream = openEventStream({
      url: `${base}/api/chat/events`,
      cookie: user.cookie,
      onEvent: (e) => userEvents.push(e),
    });
    const opsStream = openEventStream({
      url: `${base}/api/ops/chat/events`,
      cookie: ops,
      onEvent: (e) => opsEvents.push(e),
    });
    await Promise.all([userStream.opened, opsStream.opened]);

    const first = await post('/api/chat/messages', user.cookie, { clientId: randomUUID(), text: 'Hello, my deposit?' });
    expect(first.status).toBe(201);
    const hello = await until(
      () => messagesOf(opsEvents).find((m) => m.text === 'Hello, my deposit?'),
      'the operator to see it',
    );
    const conversationId = (hello as unknown as { conversationId: string }).conversationId;
    await until(
      () => messagesOf(userEvents).find((m) => m.text === 'Hello, my deposit?'),
      'the user to see their own message',
    );

    expect((await post(`/api/ops/chats/${conversationId}/typing`, ops, {})).status).toBe(204);
    await until(() => userEvents.find((e) => e.event === 'typing' && e.data.includes('"operator"')), 'typing');
    expect((await post(`/api/ops/chats/${conversationId}/read`, ops, { upTo: hello.id })).status).toBe(204);
    await until(
      () => userEvents.find((e) => e.event === 'read' && e.data.includes(`"upTo":"${hello.id}"`)),
      'the read mark',
    );

    // The user's connection drops; support answers twice meanwhile; the user comes back with Last-Event-ID.
    const seen = messagesOf(userEvents);
    userStream.close();
    for (const text of ['Looking into it', 'It arrived at 10:02'])
      expect(
        (await post(`/api/ops/chats/${conversationId}/messages`, ops, { clientId: randomUUID(), text })).status,
      ).toBe(201);
    const resumed: SseEvent[] = [];
    const again = openEventStream({
      url: `${base}/api/chat/events`,
      cookie: user.cookie,
      lastEventId: seen.at(-1)?.id ?? '0',
      onEvent: (e) => resumed.push(e),
    });
    await again.opened;
    await until(() => (messagesOf(resumed).length >= 2 ? true : undefined), 'the missed messages');
    await new Promise((r) => setTimeout(r, 200));
    expect(messagesOf(resumed).map((m) => m.text)).toEqual(['Looking into it', 'It arrived at 10:02']);

    // A retried send (same clientId) is not a second message.
    const clientId = randomUUID();
    expect((await post('/api/chat/messages', user.cookie, { clientId, text: 'Thanks!' })).status).toBe(201);
    expect((await post('/api/chat/messages', user.cookie, { clientId, text: 'Thanks!' })).status).toBe(200);
    await until(() => messagesOf(resumed).find((m) => m.text === 'Thanks!'), 'thanks');
    await new Promise((r) => setTimeout(r, 200));
    expect(messagesOf(resumed).filter((m) => m.text === 'Thanks!')).toHaveLength(1);

    const history = await fetch(`${base}/api/chat/messages?limit=2`, { headers: { cookie: user.cookie } }).then((r) =>
      r.json(),
    );
    expect(history).toMatchObject({ hasMore: true, operatorReadId: hello.id });
    expect(history.items.map((m: { text: string }) => m.text)).toEqual(['It arrived at 10:02', 'Thanks!']);
    again.close();
    opsStream.close();
  });

  it('a reply to a user who is not connected is e-mailed; files travel as chat uploads', async () => {
    const user = await registerUser(h);
    const ops = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'chat_ops_mail');
    const body = multipart('statement.pdf', Buffer.from('%PDF-1.4\n%%EOF\n'));
    const file = await h.app.inject({
      method: 'POST',
      url: '/api/uploads?place=chat',
      headers: { ...body.headers, cookie: user.cookie },
      payload: body.payload,
    });
    const sent = await post('/api/chat/messages', user.cookie, {
      clientId: randomUUID(),
      text: '',
      uploadId: file.json().id,
    });
    expect(sent.status).toBe(201);
    const message = await sent.json();
    expect(message.attachment).toMatchObject({ name: 'statement.pdf', mediaType: 'application/pdf' });
    const before = h.sink.messages.length;
    const reply = await post(`/api/ops/chats/${message.conversationId}/messages`, ops, {
      clientId: randomUUID(),
      text: 'Got your statement.',
    });
    expect(reply.status).toBe(201);
    const mail = await h.sink.waitFor(user.email, { after: before });
    expect(mail.raw).toContain('Got your statement.');
    const list = await fetch(`${base}/api/ops/chats`, { headers: { cookie: ops } }).then((r) => r.json());
    expect(list.items.find((c: { id: string }) => c.id === message.conversationId)).toMatchObject({
      online: false,
      unread: 1,
    });
  });

  it('fans out between API instances through PostgreSQL: a message sent on one reaches a stream served by another', async () => {
    const user = await registerUser(h);
    const other = buildApp({
      db: h.db,
      now: h.clock.now,
      notifications: { databaseUrl: h.databaseUrl },
      console: testConsoleSurface,
    });
    await other.listen({ host: '127.0.0.1', port: 0 });
    const otherBase = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
    try {
      const events: SseEvent[] = [];
      const stream = openEventStream({
        url: `${otherBase}/api/chat/events`,
        cookie: user.cookie,
        onEvent: (e) => events.push(e),
      });
      await stream.opened;
      expect(
        (await post('/api/chat/messages', user.cookie, { clientId: randomUUID(), text: 'via instance A' })).status,
      ).toBe(201);
      await until(() => messagesOf(events).find((m) => m.text === 'via instance A'), 'the message on instance B');
      stream.close();
    } finally {
      await other.close();
    }
  });
});
