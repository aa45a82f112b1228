import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { isLoopbackHost } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { listDevMailbox, type MailboxMessage } from './outbox.ts';

export interface DevMailboxRoutesOptions {
  db: Kysely<Database>;
  /** false in production: both routes answer 404. */
  enabled: boolean;
}

const Mailbox = Type.Object(
  {
    messages: Type.Array(
      Type.Object(
        {
          id: Type.String(),
          to: Type.String(),
          subject: Type.String(),
          text: Type.String(),
          createdAt: Type.String({ format: 'date-time' }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function renderMailbox(messages: MailboxMessage[]): string {
  const items = messages
    .map(
      (m) =>
        `<article><h2>${escapeHtml(m.subject)}</h2><p class="meta">To ${escapeHtml(m.to)} · ${escapeHtml(m.createdAt)} · #${escapeHtml(m.id)}</p><pre>${escapeHtml(m.text)}</pre></article>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dev mailbox</title>
<style>body{font-family:system-ui,sans-serif;margin:1rem;max-width:48rem}article{border-bottom:1px solid #ddd;padding:.5rem 0}h2{font-size:1rem;margin:0}.meta{color:#666;font-size:.8rem;margin:.25rem 0}pre{white-space:pre-wrap;font-size:.9rem}</style>
</head><body><h1>Dev mailbox</h1><p>Mail the server would have sent (no SMTP_URL configured), newest first. <a href="/dev/mailbox.json">JSON</a></p>
${items || '<p>No messages yet.</p>'}
</body></html>`;
}

/** Only this machine may read the mailbox (request.ip honours TRUST_PROXY: behind a proxy, the real client). */
function assertLocalReader(enabled: boolean, ip: string): void {
  if (!enabled || !isLoopbackHost(ip.replace(/^::ffff:/, ''))) throw new NotFoundError();
}

/**
 * GET /dev/mailbox (HTML) and /dev/mailbox.json: mail kept in the outbox when no SMTP server is
 * configured. Every user's codes are in it: only when DEV_MAILBOX is on, and only to loopback clients.
 */
export const devMailboxRoutes: FastifyPluginAsyncTypebox<DevMailboxRoutesOptions> = async (app, { db, enabled }) => {
  app.get('/dev/mailbox', { schema: { hide: true } }, async (request, reply) => {
    assertLocalReader(enabled, request.ip);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    return renderMailbox(await listDevMailbox(db));
  });

  app.get('/dev/mailbox.json', { schema: { hide: true, response: { 200: Mailbox } } }, async (request, reply) => {
    assertLocalReader(enabled, request.ip);
    reply.header('cache-control', 'no-store');
    return { messages: await listDevMailbox(db) };
  });
};
