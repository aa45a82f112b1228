import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { claimDueMail, markAttemptFailed, markSent } from './outbox.ts';
import type { MailTransport } from './transport.ts';

export interface OutboxWorkerOptions {
  db: Kysely<Database>;
  transport: MailTransport;
  now: () => Date;
  /** How often to look for due mail; default 1000 ms. */
  pollIntervalMs?: number;
  /** Give up after this many failed attempts; default 8. */
  maxAttempts?: number;
  /** Messages per batch; default 20. */
  batchSize?: number;
  onError?: (err: unknown) => void;
}

export interface OutboxWorker {
  start(): void;
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Looks for due mail now (after a commit that queued some). */
  nudge(): void;
  /** One pass; returns how many messages were handled. For tests and scripts. */
  runOnce(): Promise<number>;
}

/** An SMTP reply in the 5xx range (nodemailer's `responseCode`): the server refuses for good. */
export function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Retry delay after the n-th failed attempt: 5 s, 10 s, 20 s ... capped at one hour. */
export function backoffSeconds(attempt: number): number {
  return Math.min(3600, 5 * 2 ** Math.max(0, attempt - 1));
}

/**
 * Sends queued mail. Each batch is claimed with SELECT ... FOR UPDATE SKIP LOCKED inside a
 * transaction, so several workers (or processes) never send the same message twice, and a
 * crash before the commit leaves the messages queued for the next pass.
 */
export function createOutboxWorker(options: OutboxWorkerOptions): OutboxWorker {
  const { db, transport, now } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const maxAttempts = options.maxAttempts ?? 8;
  const batchSize = options.batchSize ?? 20;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let inFlight: Promise<unknown> = Promise.resolve();
  let again = false;
  let busy = false;

  async function runOnce(): Promise<number> {
    return db.transaction().execute(async (trx) => {
      const batch = await claimDueMail(trx, now(), batchSize);
      for (const message of batch) {
        try {
          await transport.send(message);
          await markSent(trx, message.id, transport.kind, now());
        } catch (err) {
          const attempt = message.attempts + 1;
          // A permanent SMTP refusal (5xx: no such mailbox, rejected) will not change by retrying.
          const retryAt =
            attempt >= maxAttempts || isPermanent(err)
              ? null
              : new Date(now().getTime() + backoffSeconds(attempt) * 1000);
          await markAttemptFailed(trx, message.id, err instanceof Error ? err.message : String(err), retryAt, now());
          options.onError?.(err);
        }
      }
      return batch.length;
    });
  }

  function schedule(delay: number): void {
    if (!running) return;
    clearTimeout(timer);
    timer = setTimeout(tick, delay);
    timer.unref();
  }

  function tick(): void {
    if (!running) return;
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    again = false;
    const pass = (async () => {
      try {
        let handled = await runOnce();
        while (running && (handled === batchSize || again)) {
          again = false;
          handled = await runOnce();
        }
      } catch (err) {
        options.onError?.(err);
      } finally {
        busy = false;
      }
    })();
    inFlight = pass;
    void pass.then(() => schedule(again ? 0 : pollIntervalMs));
  }

  return {
    start() {
      if (running) return;
      running = true;
      schedule(0);
    },
    async stop() {
      running = false;
      clearTimeout(timer);
      await inFlight;
    },
    nudge() {
      if (busy) again = true;
      else schedule(0);
    },
    runOnce,
  };
}
