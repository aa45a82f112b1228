import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message received by the sink: envelope recipients and the raw RFC 5322 source. */
export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>` for nodemailer. */
  url: string;
  messages: ReceivedMail[];
  /** Waits for the next message to `address` that arrives after `after` messages. */
  waitFor(address: string, options?: { timeoutMs?: number; after?: number }): Promise<ReceivedMail>;
  /** Makes the next `n` deliveries fail with a 451. */
  failNext(n: number): void;
  /** Refuses every message to `address` for good: 550 at RCPT TO (a mailbox that does not exist). */
  rejectRecipient(address: string): void;
  close(): Promise<void>;
}

/** The first line that is exactly six digits: the verification code. */
export function extractCode(raw: string): string | undefined {
  return /^(\d{6})\r?$/m.exec(raw)?.[1];
}

/** A real SMTP server on loopback that keeps what it receives (a dev dependency: tests and benchmarks only). */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  let failures = 0;
  const rejected = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (!rejected.has(address.address.toLowerCase())) return callback();
      callback(Object.assign(new Error('5.1.1 No such mailbox'), { responseCode: 550 }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (failures > 0) {
          failures -= 1;
          const err = Object.assign(new Error('Try again later'), { responseCode: 451 });
          callback(err);
          return;
        }
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        for (const wake of waiters) wake();
        callback();
      });
    },
  });
  // A sender that dies mid-session (an instance SIGKILLed by the kill drill) resets its connection, and
  // SMTPServer emits that as 'error': without a listener it would crash the test process. The sender
  // retries from its outbox; the sink has nothing to do.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    failNext(n) {
      failures = n;
    },
    rejectRecipient(address) {
      rejected.add(address.toLowerCase());
    },
    async waitFor(address, options = {}) {
      const target = address.toLowerCase();
      const after = options.after ?? 0;
      const find = () => messages.slice(after).find((m) => m.to.includes(target));
      const deadline = Date.now() + (options.timeoutMs ?? 5000);
      for (;;) {
        const found = find();
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no mail for ${address} within the timeout`);
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake);
            clearTimeout(timer);
            resolve();
          };
          const timer = setTimeout(wake, Math.min(left, 100));
          waiters.add(wake);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
