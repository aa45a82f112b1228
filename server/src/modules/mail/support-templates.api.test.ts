import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { operatorCookie } from '../operators/test-helpers.ts';
import { upsertSettings } from '../settings/repository.ts';
import { defaultSettings } from '../settings/schemas.ts';
import { supportMail } from './support-templates.ts';

const h = useAuthHarness();

/** The newest mail queued to `to` (the outbox is written in the operator's transaction). */
async function lastMailTo(to: string) {
  return h.db
    .selectFrom('outbox')
    .select(['subject', 'text'])
    .where('to_address', '=', to)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
}

async function answerLeftMessage(payload: object, ip: string, answer: string, cookie?: string) {
  const left = await h.app.inject({
    method: 'POST',
    url: '/api/support/messages',
    remoteAddress: ip,
    ...(cookie ? { headers: { cookie } } : {}),
    payload,
  });
  expect(left.statusCode, left.body).toBe(201);
  const ops = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, `ops_${ip.replaceAll('.', '_')}`);
  const res = await h.app.inject({
    method: 'POST',
    url: `/api/ops/support/messages/${left.json().id}/answer`,
    headers: { cookie: ops },
    payload: { answer },
  });
  expect(res.statusCode, res.body).toBe(200);
}

describe('support mail in the recipient language', () => {
  it('writes each kind in all four languages, never with an English subject outside en', () => {
    for (const language of ['zh-CN', 'zh-TW', 'es'] as const)
      for (const kind of ['chat_reply', 'ticket_reply', 'message_answer'] as const)
        expect(supportMail(language, kind, { text: 'x' }).subject).not.toMatch(/support replied|a reply to/);
    expect(supportMail('es', 'ticket_reply', { text: ' Hola ' }).text).toBe(
      'Hola\n\n(Abre el buzón de soporte de la app para ver toda la conversación y responder.)',
    );
    expect(supportMail('en', 'chat_reply', { text: '' }).text).toMatch(/^\(a file\)/);
    expect(supportMail('zh-CN', 'message_answer', { text: '已到账', quoted: '充值\n没到' }).text).toBe(
      '已到账\n\n> 充值\n> 没到',
    );
  });

  it("a visitor's left message is answered in the language of the page it was written from", async () => {
    await answerLeftMessage(
      { email: 'visitor-es@example.com', content: '¿Dónde está mi depósito?', language: 'es' },
      '203.0.113.40',
      'Llegó a las 10:02.',
    );
    const mail = await lastMailTo('visitor-es@example.com');
    expect(mail.subject).toBe('El soporte de CW Wallet respondió a tu mensaje');
    expect(mail.text).toBe('Llegó a las 10:02.\n\n> ¿Dónde está mi depósito?');
  });

  it("a signed-in writer's answer follows the account's language; without one, the default (zh-CN)", async () => {
    const account = await registerUser(h);
    await upsertSettings(h.db, account.user.id, { ...defaultSettings, language: 'zh-TW' }, h.clock.now());
    await answerLeftMessage({ email: 'tw@example.com', content: '問題' }, '203.0.113.41', '好的', account.cookie);
    expect((await lastMailTo('tw@example.com')).subject).toBe('CW Wallet 客服回覆了您的留言');
    await answerLeftMessage({ email: 'old@example.com', content: 'x' }, '203.0.113.42', 'y');
    expect((await lastMailTo('old@example.com')).subject).toBe('CW Wallet 客服回复了您的留言');
  });

  it('refuses a language the app does not have (and changes nothing)', async () => {
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/support/messages',
      remoteAddress: '203.0.113.43',
      payload: { email: 'x@example.com', content: 'x', language: 'fr' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('VALIDATION_FAILED');
  });
});
