import { useEffect, useRef, useState } from 'react';
import type { ChatMessage } from '../api/chat.ts';

export type Connection = 'connecting' | 'open' | 'reconnecting';

export interface StreamHandlers {
  onMessage: (message: ChatMessage) => void;
  onTyping: (who: 'user' | 'operator') => void;
  onRead: (who: 'user' | 'operator', upTo: string) => void;
}

/**
 * The live side of the chat: an EventSource on /api/chat/events from the newest message this screen
 * has (`afterId` at first, then the id of each event), so nothing falls between history and stream.
 * After a server-side drop the browser reconnects by itself with Last-Event-ID; when the device goes
 * offline the stream is closed and, back online, opened again after the last id seen. Either way the
 * server sends exactly what was missed: nothing lost, nothing twice.
 */
export function useChatStream(afterId: string | null, handlers: StreamHandlers): Connection {
  const [connection, setConnection] = useState<Connection>('connecting');
  const latest = useRef(handlers);
  latest.current = handlers;
  const seen = useRef<string | null>(null);
  if (afterId !== null && seen.current === null) seen.current = afterId;
  const ready = afterId !== null;

  useEffect(() => {
    if (!ready || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    const open = () => {
      source = new EventSource(`/api/chat/events?after=${seen.current ?? '0'}`);
      source.onopen = () => setConnection('open');
      source.onerror = () => setConnection('reconnecting');
      source.addEventListener('message', (event) => {
        if (event.lastEventId) seen.current = event.lastEventId;
        latest.current.onMessage(JSON.parse(event.data) as ChatMessage);
      });
      source.addEventListener('typing', (event) => latest.current.onTyping(JSON.parse(event.data).who));
      source.addEventListener('read', (event) => {
        const data = JSON.parse(event.data) as { who: 'user' | 'operator'; upTo: string };
        latest.current.onRead(data.who, data.upTo);
      });
    };
    const offline = () => {
      source?.close();
      source = null;
      setConnection('reconnecting');
    };
    const online = () => {
      if (source === null) open();
    };
    open();
    window.addEventListener('offline', offline);
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('offline', offline);
      window.removeEventListener('online', online);
      source?.close();
    };
  }, [ready]);

  return connection;
}
