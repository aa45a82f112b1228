import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { createOutboxWorker, type OutboxWorker } from './outbox-worker.ts';
import { createSmtpTransport, devMailboxTransport, type MailTransport, type OpenObject } from './transport.ts';

export interface MailOptions {
  /** SMTP server URL (nodemailer), e.g. `smtp://user:pass@host:587`; unset: dev mailbox. */
  smtpUrl?: string | null;
  /** The From header; default `CW Wallet <no-reply@localhost>`. */
  from?: string;
  /** A transport to use instead (tests). */
  transport?: MailTransport;
  /** Run the outbox worker while the app is up; default true. */
  worker?: boolean;
  pollIntervalMs?: number;
  /** Serve /dev/mailbox; default true (pass false in production). */
  devMailbox?: boolean;
  /** Reads attachments from the upload store (set by the app). */
  openObject?: OpenObject;
}

export interface MailModule {
  transport: MailTransport;
  worker: OutboxWorker;
  /** Whether the worker runs with the app. */
  autoStart: boolean;
  devMailbox: boolean;
}

export function createMailModule(
  deps: { db: Kysely<Database>; now: () => Date; onError?: (err: unknown) => void } & MailOptions,
): MailModule {
  const transport =
    deps.transport ??
    (deps.smtpUrl
      ? createSmtpTransport(deps.smtpUrl, deps.from ?? 'CW Wallet <no-reply@localhost>', deps.openObject)
      : devMailboxTransport);
  const worker = createOutboxWorker({
    db: deps.db,
    transport,
    now: deps.now,
    ...(deps.pollIntervalMs === undefined ? {} : { pollIntervalMs: deps.pollIntervalMs }),
    ...(deps.onError ? { onError: deps.onError } : {}),
  });
  return { transport, worker, autoStart: deps.worker ?? true, devMailbox: deps.devMailbox ?? false };
}
