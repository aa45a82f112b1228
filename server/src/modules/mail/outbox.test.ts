import { describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { buildDevApp } from '../../dev/dev-server.ts';
import { nextIp, uniqueUser, useAuthHarness } from '../auth/test-helpers.ts';
import { createOutboxWorker } from './outbox-worker.ts';
import { extractCode } from './smtp-sink.ts';
import { createSmtpTransport } from './transport.ts';

// The harness app has its own worker; these tests use a second app whose worker never runs ("crashed").
const h = useAuthHarness({ mail: { worker: false } });

describe('mail outbox', () => {
  it('keeps the mail when no worker runs, and a worker started later delivers it', async () => {
    const { email } = uniqueUser();
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/auth/codes',
      remoteAddress: nextIp(),
      payload: { email, purpose: 'register' },
    });
    expect(res.statusCode).toBe(202);
    const queued = await h.db
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    expect(queued.sent_at).toBeNull();
    await new Promise((r) => setTimeout(r, 200));
    expect(h.sink.messages.some((m) => m.to.includes(email))).toBe(false);

    const worker = createOutboxWorker({
      db: h.db,
      transport: createSmtpTransport(h.sink.url, 'test@localhost'),
      now: h.clock.now,
    });
    expect(await worker.runOnce()).toBeGreaterThanOrEqual(1);
    const mail = await h.sink.waitFor(email);
    expect(extractCode(mail.raw)).toMatch(/^\d{6}$/);
    // The row's id is the Message-ID: a message sent again after a crash is the same message.
    expect(mail.raw).toMatch(new RegExp(`^Message-ID: <outbox-${queued.id}@localhost>\r?$`, 'im'));
    const sent = await h.db.selectFrom('outbox').selectAll().where('id', '=', queued.id).executeTakeFirstOrThrow();
    expect(sent.sent_at).not.toBeNull();
    expect(sent.delivered_via).toBe('smtp');
    expect(await worker.runOnce()).toBe(0); // never sent twice
  });

  it('retries with backoff after an SMTP failure, then gives up after max attempts', async () => {
    const { email } = uniqueUser();
    await h.app.inject({
      method: 'POST',
      url: '/api/auth/codes',
      remoteAddress: nextIp(),
      payload: { email, purpose: 'register' },
    });
    const worker = createOutboxWorker({
      db: h.db,
      transport: createSmtpTransport(h.sink.url, 'test@localhost'),
      now: h.clock.now,
      maxAttempts: 3,
    });
    h.sink.failNext(1);
    await worker.runOnce();
    let row = await h.db.selectFrom('outbox').selectAll().where('to_address', '=', email).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(1);
    expect(row.sent_at).toBeNull();
    expect(row.next_attempt_at.getTime() - h.clock.now().getTime()).toBe(5_000);
    expect(await worker.runOnce()).toBe(0); // not due yet
    h.clock.advance(5_000);
    await worker.runOnce();
    row = await h.db.selectFrom('outbox').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    expect(row.sent_at).not.toBeNull();
    expect(row.attempts).toBe(2);

    const other = uniqueUser();
    await h.app.inject({
      method: 'POST',
      url: '/api/auth/codes',
      remoteAddress: nextIp(),
      payload: { email: other.email, purpose: 'register' },
    });
    h.sink.failNext(3);
    for (let i = 0; i < 3; i += 1) {
      await worker.runOnce();
      h.clock.advance(60_000);
    }
    row = await h.db.selectFrom('outbox').selectAll().where('to_address', '=', other.email).executeTakeFirstOrThrow();
    expect(row.failed_at).not.toBeNull();
    expect(row.attempts).toBe(3);
  });

  it('without SMTP_URL delivers to the dev mailbox (HTML and JSON, newest first); 404 in production', async () => {
    const dev = buildApp({ db: h.db, now: h.clock.now, mail: { pollIntervalMs: 20, devMailbox: true } });
    await dev.ready();
    // The mailbox is on the loopback-only dev listener (dev/dev-server.ts), not on the app.
    const devRoutes = buildDevApp({ db: h.db, devMailbox: true, clock: null });
    const { email } = uniqueUser();
    await dev.inject({
      method: 'POST',
      url: '/api/auth/codes',
      remoteAddress: nextIp(),
      payload: { email, purpose: 'register', language: 'en' },
    });
    let messages: { to: string; subject: string; text: string }[] = [];
    for (let i = 0; i < 50 && !messages.some((m) => m.to === email); i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      messages = (await devRoutes.inject({ method: 'GET', url: '/dev/mailbox.json' })).json().messages;
    }
    const mine = messages.find((m) => m.to === email);
    expect(mine?.subject).toBe('Your verification code');
    expect(extractCode(mine?.text ?? '')).toMatch(/^\d{6}$/);
    const html = await devRoutes.inject({ method: 'GET', url: '/dev/mailbox' });
    expect(html.headers['content-type']).toContain('text/html');
    expect(html.body).toContain(email);
    // Another machine never reads it, even with DEV_MAILBOX on.
    const remote = await devRoutes.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress: '203.0.113.7' });
    expect(remote.statusCode).toBe(404);
    await devRoutes.close();
    await dev.close();
    const prod = buildDevApp({ db: h.db, devMailbox: false, clock: null });
    expect((await prod.inject({ method: 'GET', url: '/dev/mailbox' })).statusCode).toBe(404);
    expect((await prod.inject({ method: 'GET', url: '/dev/mailbox.json' })).statusCode).toBe(404);
    await prod.close();
  });
});
