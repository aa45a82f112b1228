import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { enqueueMail, type OutgoingMail } from './outbox.ts';
import type { MailContent, MailLanguage } from './templates.ts';

/** Bounds of the phrase: short enough to read at a glance, long enough not to be guessed. */
export const ANTI_PHISHING_MIN = 4;
export const ANTI_PHISHING_MAX = 32;
/** Plain text only: no markup characters, no control characters (it goes into HTML mail). */
export const ANTI_PHISHING_PATTERN = `^[^<>&"'\\u0000-\\u001f\\u007f]{${ANTI_PHISHING_MIN},${ANTI_PHISHING_MAX}}$`;

const label: Record<MailLanguage, string> = {
  'zh-CN': '您的防钓鱼码',
  'zh-TW': '您的防釣魚碼',
  en: 'Your anti-phishing code',
  es: 'Tu código antiphishing',
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A mail of ours to a user, with their anti-phishing phrase at the top of the text and the HTML part
 * (escaped there; the phrase rules already refuse markup). Without a phrase the mail is unchanged
 * (text only, as before).
 */
export function withAntiPhishing(
  mail: MailContent,
  phrase: string | null,
  language: MailLanguage,
): MailContent & { html?: string } {
  if (!phrase) return mail;
  const text = `${label[language]}: ${phrase}\n\n${mail.text}`;
  const banner = `<p style="padding:8px;border:1px solid #ccc" data-anti-phishing>${escapeHtml(label[language])}: <strong>${escapeHtml(phrase)}</strong></p>`;
  const body = escapeHtml(mail.text).replace(/\n/g, '<br>');
  return { subject: mail.subject, text, html: `<!doctype html><html><body>${banner}<div>${body}</div></body></html>` };
}

export async function antiPhishingPhrase(db: Kysely<Database>, userId: string | null): Promise<string | null> {
  if (userId === null) return null;
  const row = await db
    .selectFrom('anti_phishing_codes')
    .select('phrase')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.phrase ?? null;
}

/**
 * Queues a mail of ours to one of our users (a code, a notice, a support answer) with their phrase.
 * Not for mail a user writes to someone else (user-mail): that must never carry a recipient's phrase,
 * or the app would vouch for a phishing text.
 */
export async function enqueueUserMail(
  db: Kysely<Database>,
  userId: string | null,
  language: MailLanguage,
  mail: MailContent & Omit<OutgoingMail, 'subject' | 'text' | 'html'>,
  now: Date,
): Promise<string> {
  const { subject, text, ...rest } = mail;
  const stamped = withAntiPhishing({ subject, text }, await antiPhishingPhrase(db, userId), language);
  return enqueueMail(db, { ...rest, ...stamped }, now);
}
