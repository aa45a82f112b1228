import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { addTestOperator } from '../operators/test-helpers.ts';
import { openEventStream, type SseEvent } from './sse-client.ts';

/**
 * Review 32a, finding 3: the guard reads the roles on every request, but GET /api/ops/chat/events is
 * one request: its stillLive check (operators.isLive) looks at the session and `disabled_at` only,
 * never the roles. An operator whose `support` role an admin takes away (moved to compliance, say)
 * keeps receiving every user's chat live for as long as the session lives (up to 8 h when active).
 */
const HEARTBEAT_MS = 200;
const h = useAuthHarness({ chat: { heartbeatMs: HEARTBEAT_MS } });
let base = '';
beforeAll(async () => {
  await h.app.listen({ host: '127.0.0.1', port: 0 });
  base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
});

describe('review 32a: the operator chat stream and role changes', () => {
  it('a stream ends (no more chats) once the operator loses the support role', async () => {
    const op = await addTestOperator(h.app, { db: h.db, now: h.clock.now }, 'role_stream', ['support', 'compliance']);
    const events: SseEvent[] = [];
    const s = openEventStream({
      url: `${base}/api/ops/chat/events`,
      cookie: op.cookie,
      onEvent: (e) => events.push(e),
    });
    await s.opened;
    // What PUT /api/ops/operators/:id/roles does (accounts.setRoles): support taken away.
    await h.db
      .updateTable('operators')
      .set({ roles: ['compliance'] })
      .where('id', '=', op.id)
      .execute();
    // A plain request is refused at once...
    const list = await fetch(`${base}/api/ops/chats`, { headers: { cookie: op.cookie, origin: base } });
    expect(list.status).toBe(403);
    // ...but the open stream still carries a user's new chat message.
    const user = await registerUser(h);
    await fetch(`${base}/api/chat/messages`, {
      method: 'POST',
      headers: { cookie: user.cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: randomUUID(), text: 'my seed phrase is' }),
    });
    await new Promise((r) => setTimeout(r, 3 * HEARTBEAT_MS + 500));
    s.close();
    expect(events.some((e) => e.data.includes('my seed phrase is'))).toBe(false);
  });

  it('a stream goes on when a role it does not need is taken away (support kept)', async () => {
    const op = await addTestOperator(h.app, { db: h.db, now: h.clock.now }, 'role_keep', ['support', 'compliance']);
    const events: SseEvent[] = [];
    const s = openEventStream({
      url: `${base}/api/ops/chat/events`,
      cookie: op.cookie,
      onEvent: (e) => events.push(e),
    });
    await s.opened;
    await h.db
      .updateTable('operators')
      .set({ roles: ['support'] })
      .where('id', '=', op.id)
      .execute();
    const user = await registerUser(h);
    await fetch(`${base}/api/chat/messages`, {
      method: 'POST',
      headers: { cookie: user.cookie, origin: base, 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: randomUUID(), text: 'still heard' }),
    });
    await expect.poll(() => events.some((e) => e.data.includes('still heard')), { timeout: 10_000 }).toBe(true);
    s.close();
  });
});
