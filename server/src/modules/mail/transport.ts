import type { Readable } from 'node:stream';
import nodemailer from 'nodemailer';
import type { OutgoingMail } from './outbox.ts';

/** Opens a file of the upload store by its object key (for attachments). */
export type OpenObject = (objectKey: string) => Promise<Readable>;

export interface MailTransport {
  /** `smtp` or `dev-mailbox`; stored in `outbox.delivered_via`. */
  readonly kind: 'smtp' | 'dev-mailbox';
  /** `id`: the outbox row's, made the Message-ID, so a message sent again after a crash is recognisably the same. */
  send(mail: OutgoingMail & { id?: string }): Promise<void>;
  close(): void;
}

/** Real SMTP through nodemailer (`smtp://user:pass@host:port`, `smtps://...`). */
export function createSmtpTransport(smtpUrl: string, from: string, openObject?: OpenObject): MailTransport {
  const transporter = nodemailer.createTransport(smtpUrl);
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return {
    kind: 'smtp',
    async send(mail) {
      const files = mail.attachments ?? [];
      if (files.length > 0 && !openObject) throw new Error('mail has attachments but no upload store to read them');
      const attachments = await Promise.all(
        files.map(async (file) => ({
          filename: file.filename,
          contentType: file.contentType,
          content: await (openObject as OpenObject)(file.objectKey),
        })),
      );
      await transporter.sendMail({
        // Stable per outbox row: SMTP has no idempotency, so a worker killed between sending and
        // marking the row sent sends it again on another instance; mail clients and MTAs drop the repeat.
        ...(mail.id === undefined ? {} : { messageId: `<outbox-${mail.id}@${domain}>` }),
        ...(attachments.length === 0 ? {} : { attachments }),
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
