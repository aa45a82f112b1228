import { useEffect, useRef } from 'react';
import type { OpsChatMessage } from './api.ts';

export interface OpsChatHandlers {
  onMessage: (message: OpsChatMessage) => void;
  onTyping: (conversationId: string, who: string) => void;
  onRead: (conversationId: string, who: string, upTo: string) => void;
  onReconnect: () => void;
}

/** Every chat, live (the operators' event stream); after a reconnect the console reloads what it shows. */
export function useOpsChatEvents(handlers: OpsChatHandlers): void {
  const latest = useRef(handlers);
  latest.current = handlers;
  useEffect(() => {
    const source = new EventSource('/api/ops/chat/events');
    let dropped = false;
    source.onerror = () => {
      dropped = true;
    };
    source.onopen = () => {
      if (dropped) latest.current.onReconnect();
      dropped = false;
    };
    source.addEventListener('message', (e) => latest.current.onMessage(JSON.parse(e.data) as OpsChatMessage));
    source.addEventListener('typing', (e) => {
      const d = JSON.parse(e.data) as { conversationId: string; who: string };
      latest.current.onTyping(d.conversationId, d.who);
    });
    source.addEventListener('read', (e) => {
      const d = JSON.parse(e.data) as { conversationId: string; who: string; upTo: string };
      latest.current.onRead(d.conversationId, d.who, d.upTo);
    });
    return () => source.close();
  }, []);
}
