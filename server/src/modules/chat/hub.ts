import pg from 'pg';
import { findPrimaryUrl, isMultiHostUrl } from '../../db/replication/multi-host-pool.ts';
import { CHAT_CHANNEL } from './repository.ts';

/**
 * A chat event as it travels through PostgreSQL NOTIFY: which conversation, and what happened there.
 * Messages carry only their id (a NOTIFY payload is limited to 8000 bytes): listeners read them from
 * the table. `resync` is local: the listener lost its connection and may have missed events.
 */
export type ChatEvent =
  | { k: 'm'; c: string; id: string }
  | { k: 't'; c: string; who: 'user' | 'operator' }
  | { k: 'r'; c: string; who: 'user' | 'operator'; upTo: string }
  | { k: 'resync'; c: '*' };

export type Listener = (event: ChatEvent) => void;

export interface ChatHub {
  /** Events of one conversation, or of all ('*', the operators). Returns the unsubscribe function. */
  subscribe(conversationId: string, listener: Listener): () => void;
  /** Resolves once this instance listens (a stream opened before would miss what is sent meanwhile). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

const RETRY_MS = [250, 500, 1000, 2000, 5000];

function parse(payload: string | undefined): ChatEvent | null {
  try {
    const event = JSON.parse(payload ?? '') as ChatEvent;
    return typeof event.c === 'string' && ['m', 't', 'r'].includes(event.k) ? event : null;
  } catch {
    return null;
  }
}

/**
 * Fan-out between API instances through PostgreSQL LISTEN/NOTIFY: every instance keeps one
 * connection listening on `chat_events` and hands each event to its own subscribers. Nothing is
 * kept in memory but who is subscribed here; the messages themselves are read from the database.
 * When the listening connection drops it reconnects with backoff and tells every subscriber to
 * catch up from the table (`resync`), so nothing written meanwhile is lost.
 */
export function createChatHub(options: { connectionString: string; onError?: (err: unknown) => void }): ChatHub {
  const subscribers = new Map<string, Set<Listener>>();
  let client: pg.Client | null = null;
  let closed = false;
  let attempt = 0;

  const dispatch = (event: ChatEvent) => {
    const targets = event.k === 'resync' ? [...subscribers.values()] : [subscribers.get(event.c), subscribers.get('*')];
    for (const set of targets) for (const listener of set ?? []) listener(event);
  };

  const connect = async (): Promise<void> => {
    // A multi-host DATABASE_URL: LISTEN on whichever host is the primary now (after a failover too).
    const cs = options.connectionString;
    const next = new pg.Client({ connectionString: isMultiHostUrl(cs) ? await findPrimaryUrl(cs) : cs });
    next.on('notification', (message) => {
      const event = parse(message.payload);
      if (event) dispatch(event);
    });
    next.on('error', (err) => {
      options.onError?.(err);
      void reconnect(next);
    });
    await next.connect();
    await next.query(`LISTEN ${CHAT_CHANNEL}`);
    client = next;
    if (attempt > 0) dispatch({ k: 'resync', c: '*' });
    attempt = 0;
  };

  const reconnect = async (broken: pg.Client) => {
    if (closed || client !== broken) return;
    client = null;
    await broken.end().catch(() => undefined);
    while (!closed && client === null) {
      await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      attempt += 1;
      await connect().catch((err: unknown) => options.onError?.(err));
    }
  };

  // A failed first connection keeps retrying; streams wait for it rather than miss events.
  const ready = (async () => {
    while (!closed) {
      try {
        await connect();
        return;
      } catch (err) {
        options.onError?.(err);
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]));
      }
    }
  })();

  return {
    subscribe(conversationId, listener) {
      const set = subscribers.get(conversationId) ?? new Set<Listener>();
      subscribers.set(conversationId, set);
      set.add(listener);
      return () => {
        set.delete(listener);
        if (set.size === 0) subscribers.delete(conversationId);
      };
    },
    ready: () => ready,
    async close() {
      closed = true;
      await ready.catch(() => undefined);
      await client?.end().catch(() => undefined);
      client = null;
    },
  };
}
