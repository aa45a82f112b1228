/** One server-sent event as a client reads it. */
export interface SseEvent {
  id?: string;
  event: string;
  data: string;
}

/**
 * A minimal EventSource for Node (tests and the bench): opens `url` with the cookie, optionally
 * resuming with Last-Event-ID, and hands each event to `onEvent`. `close()` drops the connection,
 * as a lost network would; `ended` settles when the stream is over (either side ended it).
 */
export function openEventStream(options: {
  url: string;
  cookie: string;
  lastEventId?: string;
  onEvent: (event: SseEvent) => void;
}): { opened: Promise<void>; ended: Promise<void>; close: () => void } {
  const controller = new AbortController();
  let markEnded: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    markEnded = resolve;
  });
  const opened = (async () => {
    const response = await fetch(options.url, {
      headers: {
        cookie: options.cookie,
        accept: 'text/event-stream',
        ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}),
      },
      signal: controller.signal,
    });
    if (response.status !== 200 || !response.body) throw new Error(`event stream answered ${response.status}`);
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    void (async () => {
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
        if (done) return markEnded();
        buffer += value;
        let end = buffer.indexOf('\n\n');
        while (end >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event: SseEvent = { event: 'message', data: '' };
          for (const line of block.split('\n')) {
            if (line.startsWith('id: ')) event.id = line.slice(4);
            else if (line.startsWith('event: ')) event.event = line.slice(7);
            else if (line.startsWith('data: ')) event.data += line.slice(6);
          }
          if (event.data !== '') options.onEvent(event);
          end = buffer.indexOf('\n\n');
        }
      }
    })();
  })();
  opened.catch(() => markEnded());
  return { opened, ended, close: () => controller.abort() };
}
