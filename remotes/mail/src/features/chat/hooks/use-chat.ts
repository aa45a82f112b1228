import { useInfiniteQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { type ChatMessage, fetchHistory, markChatRead, sendChatMessage, sendTyping } from '../api/chat.ts';
import { idOrder, lastId, mergeConversation, type PendingMessage } from '../utils/merge.ts';
import { useChatStream } from './use-chat-stream.ts';

/** How long "support is typing" shows after their last keystroke signal. */
const TYPING_SHOWN_MS = 4000;
/** At most one typing signal in this time. */
const TYPING_EVERY_MS = 3000;

const maxId = (a: string, b: string) => (idOrder(a, b) >= 0 ? a : b);

/** Marks support's messages read while the screen is visible. */
function useReadMarks(messages: readonly ChatMessage[]) {
  const sent = useRef('0');
  useEffect(() => {
    const newest = lastId(messages.filter((m) => m.author === 'operator'));
    if (newest === null || idOrder(newest, sent.current) <= 0 || document.visibilityState !== 'visible') return;
    sent.current = newest;
    void markChatRead(newest).catch(() => {
      sent.current = '0';
    });
  }, [messages]);
}

/** The chat screen's state: history pages, live messages, what is being sent, typing and read marks. */
export function useChat() {
  const history = useInfiniteQuery({
    queryKey: ['mail', 'chat'],
    queryFn: ({ pageParam }) => fetchHistory(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => (last.hasMore ? last.items[0]?.id : undefined),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [live, setLive] = useState<ChatMessage[]>([]);
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const [operatorReadId, setOperatorReadId] = useState('0');
  const [typingUntil, setTypingUntil] = useState(0);
  const [, rerender] = useState(0);
  const first = history.data?.pages[0];
  const connection = useChatStream(first ? (lastId(first.items) ?? '0') : null, {
    onMessage: (message) => setLive((all) => [...all, message]),
    onTyping: (who) => who === 'operator' && setTypingUntil(Date.now() + TYPING_SHOWN_MS),
    onRead: (who, upTo) => who === 'operator' && setOperatorReadId((id) => maxId(id, upTo)),
  });
  useEffect(() => {
    if (first) setOperatorReadId((id) => maxId(id, first.operatorReadId));
  }, [first]);
  useEffect(() => {
    const left = typingUntil - Date.now();
    if (left <= 0) return;
    const timer = setTimeout(() => rerender((n) => n + 1), left + 10);
    return () => clearTimeout(timer);
  }, [typingUntil]);

  const pages = history.data?.pages;
  const merged = useMemo(
    () => mergeConversation([...(pages ?? []).map((p) => p.items), live], pending),
    [pages, live, pending],
  );
  useReadMarks(merged.messages);

  const send = useCallback(
    (input: Omit<PendingMessage, 'status' | 'clientId'>, clientId: string = crypto.randomUUID()) => {
      setPending((all) => [...all.filter((p) => p.clientId !== clientId), { ...input, clientId, status: 'sending' }]);
      sendChatMessage({ clientId, text: input.text, ...(input.uploadId ? { uploadId: input.uploadId } : {}) }).then(
        (message) => setLive((all) => [...all, message]),
        () => setPending((all) => all.map((p) => (p.clientId === clientId ? { ...p, status: 'failed' } : p))),
      );
    },
    [],
  );
  const lastTyping = useRef(0);
  const typing = useCallback(() => {
    if (Date.now() - lastTyping.current < TYPING_EVERY_MS) return;
    lastTyping.current = Date.now();
    void sendTyping().catch(() => undefined);
  }, []);

  return {
    history,
    messages: merged.messages,
    pending: merged.pending,
    operatorReadId,
    operatorTyping: typingUntil > Date.now(),
    connection,
    send,
    retry: (p: PendingMessage) => send(p, p.clientId),
    typing,
  };
}
