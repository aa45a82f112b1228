import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ChatEvent, ChatHub } from './hub.ts';
import type { ChatMessage } from './schemas.ts';

/** A comment line every so often keeps proxies from closing a quiet stream (and renews presence). */
export const HEARTBEAT_MS = 25_000;
/** How long the browser waits before reconnecting (EventSource's `retry`). */
const RETRY_MS = 2000;

export interface StreamOptions {
  hub: ChatHub;
  /** A conversation id, or '*' for every conversation (operators). */
  scope: string;
  /** Where to start: the last message id the client has (Last-Event-ID or ?after), else now. */
  afterId: string;
  /** Messages after an id, oldest first, at most a page: the stream's catch-up from the table. */
  messagesAfter: (afterId: string) => Promise<ChatMessage[]>;
  /** Presence: called at open and on each heartbeat, and with false at close. */
  onPresence?: (online: boolean) => Promise<void>;
  /**
   * Whether the session that opened the stream still holds (not signed out, revoked, expired, nor its
   * operator disabled): asked before any message goes out and on every heartbeat; false ends the stream.
   */
  stillLive: () => Promise<boolean>;
  /** Every heartbeat (the stream's slot keeps counting); default HEARTBEAT_MS apart. */
  onHeartbeat?: () => Promise<void>;
  /** Once, when the stream ends (its slot is given back). */
  onClose?: () => Promise<void>;
  heartbeatMs?: number;
}

/** The streams open in this process, so shutdown can end them (they never go idle by themselves). */
export interface StreamRegistry {
  add(end: () => void): () => void;
  endAll(): void;
}

export function createStreamRegistry(): StreamRegistry {
  const open = new Set<() => void>();
  return {
    add(end) {
      open.add(end);
      return () => open.delete(end);
    },
    endAll() {
      for (const end of [...open]) end();
    },
  };
}

/** The id the client resumes from: the Last-Event-ID header (EventSource's reconnect) or ?after. */
export function resumeId(request: FastifyRequest, after: string | undefined): string | null {
  const header = request.headers['last-event-id'];
  const value = typeof header === 'string' && /^[0-9]{1,19}$/.test(header) ? header : after;
  return value ?? null;
}

const frame = (event: string, data: unknown, id?: string) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/**
 * Serves one server-sent event stream: subscribes first, then catches up from the table, so a message
 * written in between is read once, never missed. Messages go out in id order, each once (the cursor
 * only moves forward); typing and read marks are passed through as they come and carry no id.
 */
export function serveStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: StreamOptions,
  registry: StreamRegistry,
) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-accel-buffering': 'no',
    connection: 'keep-alive',
    'x-request-id': request.id,
  });
  raw.write(`retry: ${RETRY_MS}\n\n`);
  let cursor = options.afterId;
  let chain = Promise.resolve();
  let closed = false;
  const pump = () => {
    chain = chain
      .then(async () => {
        while (!closed) {
          const batch = await options.messagesAfter(cursor);
          if (batch.length === 0) return;
          // A session that ended since the stream opened reads nothing more (issue 38).
          if (!(await options.stillLive())) return close();
          for (const message of batch) {
            raw.write(frame('message', message, message.id));
            cursor = message.id;
          }
        }
      })
      .catch((err: unknown) => request.log.warn({ err }, 'chat stream catch-up failed'));
  };
  const onEvent = (event: ChatEvent) => {
    if (event.k === 'm' || event.k === 'resync') pump();
    else if (event.k === 't') raw.write(frame('typing', { conversationId: event.c, who: event.who }));
    else raw.write(frame('read', { conversationId: event.c, who: event.who, upTo: event.upTo }));
  };
  const unsubscribe = options.hub.subscribe(options.scope, onEvent);
  pump();
  void options.onPresence?.(true).catch(() => undefined);
  const beat = async () => {
    if (!(await options.stillLive())) return close();
    if (closed) return;
    raw.write(': ping\n\n');
    await Promise.all([options.onPresence?.(true), options.onHeartbeat?.()]);
  };
  const heartbeat = setInterval(() => {
    beat().catch((err: unknown) => request.log.warn({ err }, 'chat stream heartbeat failed'));
  }, options.heartbeatMs ?? HEARTBEAT_MS);
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe();
    forget();
    void options.onPresence?.(false).catch(() => undefined);
    void options.onClose?.().catch(() => undefined);
    raw.end();
  };
  const forget = registry.add(close);
  raw.on('close', close);
}
