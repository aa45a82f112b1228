import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { findSettings } from '../settings/repository.ts';
import { isMailLanguage, type MailContent, type MailLanguage, mailLanguages } from './templates.ts';

/** Support mail that carries an operator's words: a chat reply, a ticket reply, an answer to a left message. */
export type SupportMailKind = 'chat_reply' | 'ticket_reply' | 'message_answer';

interface SupportTexts {
  subject: Record<SupportMailKind, string>;
  /** Where to go on, after the operator's words. */
  footer: Record<Exclude<SupportMailKind, 'message_answer'>, string>;
  /** Placeholder for a reply that is only a file. */
  file: string;
}

const texts: Record<MailLanguage, SupportTexts> = {
  'zh-CN': {
    subject: {
      chat_reply: 'CW Wallet 客服在在线聊天中回复了您',
      ticket_reply: 'CW Wallet 客服：您的工单有新回复',
      message_answer: 'CW Wallet 客服回复了您的留言',
    },
    footer: {
      chat_reply: '（请打开应用的在线客服进行回复。）',
      ticket_reply: '（请打开应用的客服邮箱查看完整对话并回复。）',
    },
    file: '（一个文件）',
  },
  'zh-TW': {
    subject: {
      chat_reply: 'CW Wallet 客服在線上聊天中回覆了您',
      ticket_reply: 'CW Wallet 客服：您的工單有新回覆',
      message_answer: 'CW Wallet 客服回覆了您的留言',
    },
    footer: {
      chat_reply: '（請開啟應用程式的線上客服進行回覆。）',
      ticket_reply: '（請開啟應用程式的客服信箱查看完整對話並回覆。）',
    },
    file: '（一個檔案）',
  },
  en: {
    subject: {
      chat_reply: 'CW Wallet support replied in your chat',
      ticket_reply: 'CW Wallet support: a reply to your ticket',
      message_answer: 'CW Wallet support answered your message',
    },
    footer: {
      chat_reply: "(Open the app's live chat to answer.)",
      ticket_reply: "(Open the app's support mailbox to see the whole conversation and answer.)",
    },
    file: '(a file)',
  },
  es: {
    subject: {
      chat_reply: 'El soporte de CW Wallet te respondió en el chat',
      ticket_reply: 'Soporte de CW Wallet: una respuesta a tu solicitud',
      message_answer: 'El soporte de CW Wallet respondió a tu mensaje',
    },
    footer: {
      chat_reply: '(Abre el chat en vivo de la app para responder.)',
      ticket_reply: '(Abre el buzón de soporte de la app para ver toda la conversación y responder.)',
    },
    file: '(un archivo)',
  },
};

/** The mail of an operator's reply, in the recipient's language; `quoted` is what they wrote (a left message). */
export function supportMail(
  language: MailLanguage,
  kind: SupportMailKind,
  reply: { text: string; quoted?: string },
): MailContent {
  const t = texts[language];
  const body = reply.text.trim() || t.file;
  if (kind === 'message_answer') {
    const quote = reply.quoted === undefined ? '' : `\n\n> ${reply.quoted.replace(/\n/g, '\n> ')}`;
    return { subject: t.subject[kind], text: `${body}${quote}` };
  }
  return { subject: t.subject[kind], text: `${body}\n\n${t.footer[kind]}` };
}

/** The language a user reads mail in: the account's setting, else the app's default (zh-CN). */
export async function mailLanguageOfUser(db: Kysely<Database>, userId: string | null): Promise<MailLanguage> {
  if (userId === null) return mailLanguages[0];
  const language = (await findSettings(db, userId))?.language;
  return isMailLanguage(language) ? language : mailLanguages[0];
}
