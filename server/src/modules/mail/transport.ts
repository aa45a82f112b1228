import nodemailer from 'nodemailer';
import type { OutgoingMail } from './outbox.ts';

export interface MailTransport {
  /** `smtp` or `dev-mailbox`; stored in `outbox.delivered_via`. */
  readonly kind: 'smtp' | 'dev-mailbox';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** Real SMTP through nodemailer (`smtp://user:pass@host:port`, `smtps://...`). */
export function createSmtpTransport(smtpUrl: string, from: string): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        // Quoted-printable keeps the ASCII code line readable in the raw message.
        textEncoding: 'quoted-printable',
        text: mail.text,
        ...(mail.html === undefined ? {} : { html: mail.html }),
        ...(mail.replyTo === undefined ? {} : { replyTo: mail.replyTo }),
      });
    },
    close: () => transporter.close(),
  };
}

/** No SMTP configured: messages stay in the outbox, marked as delivered to the dev mailbox. */
export const devMailboxTransport: MailTransport = {
  kind: 'dev-mailbox',
  async send() {},
  close() {},
};
