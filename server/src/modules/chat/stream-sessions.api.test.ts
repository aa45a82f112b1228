import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { login, registerUser, sessionCookie, useAuthHarness } from '../auth/test-helpers.ts';
import { operatorCookie } from '../operators/test-helpers.ts';
import { openEventStream, type SseEvent } from './sse-client.ts';

/**
 * Issue 38 item 3: the session was checked only when a chat stream opened, and heartbeats kept it
 * open through logout, "sign out others", a password reset or an operator being disabled (for the
 * operator stream: every user's chat). A stream now ends when its session does: checked before any
 * message goes out and on every heartbeat. And a session or user opens only a few streams at once.
 */
const HEARTBEAT_MS = 200;
const h = useAuthHarness({ chat: { heartbeatMs: HEARTBEAT_MS } });
let base = '';
beforeAll(async () => {
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});

const request = (method: string, url: string, cookie: string, body?: object) =>
  fetch(`${base}${url}`, {
    method,
    headers: { cookie, origin: base, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });

function stream(url: string, cookie: string) {
  const events: SseEvent[] = [];
  let over = false;
  const s = openEventStream({ url: `${base}${url}`, cookie, onEvent: (e) => events.push(e) });
  void s.ended.then(() => {
    over = true;
  });
  return { ...s, events, isOver: () => over };
}

const ended = (s: { ended: Promise<void> }, ms = 5000) =>
  Promise.race([s.ended.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

describe('chat streams end with their session', () => {
  it('a user stream ends at logout', async () => {
    const user = await registerUser(h);
    const s = stream('/api/chat/events', user.cookie);
    await s.opened;
    expect((await request('POST', '/api/auth/logout', user.cookie)).status).toBeLessThan(300);
    expect(await ended(s)).toBe(true);
  });

  it('a user stream ends when another device signs the others out', async () => {
    const user = await registerUser(h);
    const other = sessionCookie(await login(h, user.username, user.password));
    const s = stream('/api/chat/events', user.cookie);
    await s.opened;
    const res = await request('POST', '/api/me/sessions/revoke-others', other);
    expect(res.status, await res.text()).toBeLessThan(300);
    expect(await ended(s)).toBe(true);
  });

  it('an operator stream ends when the operator is disabled, before any user message reaches it', async () => {
    const ops = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'stream_ops');
    const s = stream('/api/ops/chat/events', ops);
    await s.opened;
    await h.db.updateTable('operators').set({ disabled_at: h.clock.now() }).where('name', '=', 'stream_ops').execute();
    const user = await registerUser(h);
    await request('POST', '/api/chat/messages', user.cookie, { clientId: randomUUID(), text: 'secret' });
    expect(await ended(s)).toBe(true);
    expect(s.events.some((e) => e.data.includes('secret'))).toBe(false);
  });

  it('a session opens at most 3 streams at once; a closed one frees its place', async () => {
    const user = await registerUser(h);
    const open = [1, 2, 3].map(() => stream('/api/chat/events', user.cookie));
    await Promise.all(open.map((s) => s.opened));
    const fourth = await fetch(`${base}/api/chat/events`, { headers: { cookie: user.cookie } });
    expect(fourth.status).toBe(429);
    expect((await fourth.json()).code).toBe('RATE_LIMITED');
    open[0]?.close();
    await new Promise((r) => setTimeout(r, 300));
    const again = stream('/api/chat/events', user.cookie);
    await again.opened;
    for (const s of [...open, again]) s.close();
  });
});
