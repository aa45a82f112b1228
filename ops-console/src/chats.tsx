import { type ChangeEvent, useCallback, useEffect, useState } from 'react';
import { type OpsChat, type OpsChatMessage, opsApi, problemOf } from './api.ts';
import { useOpsChatEvents } from './use-ops-chat-events.ts';
import { UserLocks } from './user-locks.tsx';

const TYPING_SHOWN_MS = 4000;
const bigger = (a: string, b: string) => (BigInt(a) >= BigInt(b) ? a : b);

/** The open chat: its messages (files too), the user's typing and what they have read; answer box. */
function ChatPanel(props: { chat: OpsChat; messages: OpsChatMessage[]; userTyping: boolean; userReadId: string }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState('');
  // The box empties at once (what is typed next is a new message); a refused send puts the text back.
  const send = (body: { text: string; uploadId?: string }) => {
    if (body.text) setText('');
    return opsApi.chatSend(props.chat.id, { clientId: crypto.randomUUID(), ...body }).then(
      () => setProblem(''),
      (e: unknown) => {
        if (body.text) setText(body.text);
        setProblem(problemOf(e));
      },
    );
  };
  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file)
      opsApi.upload(file, 'chat').then(
        (up) => send({ text: '', uploadId: up.id }),
        (e: unknown) => setProblem(problemOf(e)),
      );
  };
  return (
    <article className="message" data-testid="ops-chat" data-id={props.chat.id}>
      <p className="muted">
        {props.chat.username} · {props.chat.email} · {props.chat.online ? 'online' : 'offline (replies are e-mailed)'}
      </p>
      <UserLocks user={props.chat.username} />
      {props.messages.map((m) => (
        <div key={m.id} className={`bubble bubble--${m.author}`} data-testid="ops-chat-message" data-author={m.author}>
          <p className="content">{m.text}</p>
          {m.attachment ? (
            <a href={`${m.attachment.url}?variant=original`} data-testid="ops-chat-file">
              {m.attachment.name}
            </a>
          ) : null}
          {m.author === 'operator' && BigInt(props.userReadId) >= BigInt(m.id) ? (
            <span className="muted"> · read</span>
          ) : null}
        </div>
      ))}
      {props.userTyping ? (
        <p className="muted" data-testid="ops-chat-typing">
          User is typing…
        </p>
      ) : null}
      {problem ? <p className="problem">{problem}</p> : null}
      <textarea
        rows={2}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          void opsApi.chatTyping(props.chat.id).catch(() => undefined);
        }}
        data-testid="ops-chat-input"
      />
      <input type="file" onChange={pick} data-testid="ops-chat-file-input" />
      <button
        type="button"
        onClick={() => void send({ text })}
        disabled={text.trim() === ''}
        data-testid="ops-chat-send"
      >
        Send
      </button>
    </article>
  );
}

/** Live chats by latest activity; open one to talk. Events arrive over the operators' stream. */
export function Chats() {
  const [chats, setChats] = useState<OpsChat[]>([]);
  const [open, setOpen] = useState<OpsChat | null>(null);
  const [messages, setMessages] = useState<OpsChatMessage[]>([]);
  const [typingUntil, setTypingUntil] = useState<Record<string, number>>({});
  const [userRead, setUserRead] = useState('0');
  const loadList = useCallback(
    () =>
      opsApi.chats().then(
        (r) => setChats(r.items),
        () => undefined,
      ),
    [],
  );
  const openChat = useCallback(
    (chat: OpsChat) => {
      setOpen(chat);
      void opsApi.chatHistory(chat.id).then((h) => {
        setMessages(h.items);
        setUserRead(h.userReadId);
        const last = h.items.at(-1);
        if (last) void opsApi.chatRead(chat.id, last.id).then(loadList);
      });
    },
    [loadList],
  );
  useEffect(() => void loadList(), [loadList]);
  useOpsChatEvents({
    onMessage: (m) => {
      void loadList();
      if (m.conversationId !== open?.id) return;
      setMessages((all) => (all.some((x) => x.id === m.id) ? all : [...all, m]));
      if (m.author === 'user') void opsApi.chatRead(m.conversationId, m.id);
    },
    onTyping: (c, who) => who === 'user' && setTypingUntil((t) => ({ ...t, [c]: Date.now() + TYPING_SHOWN_MS })),
    onRead: (c, who, upTo) => who === 'user' && c === open?.id && setUserRead((r) => bigger(r, upTo)),
    onReconnect: () => {
      void loadList();
      if (open) openChat(open);
    },
  });
  const [, tick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => tick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return (
    <section className="card" data-testid="ops-chats">
      <h2>Live chats</h2>
      {chats.length === 0 ? <p className="muted">No chats yet.</p> : null}
      <ul className="plain">
        {chats.map((c) => (
          <li key={c.id}>
            <button
              type="button"
              className="link"
              onClick={() => openChat(c)}
              data-testid="ops-chat-open"
              data-id={c.id}
            >
              {c.username} {c.online ? '●' : '○'} {c.unread > 0 ? `(${c.unread} new)` : ''}
            </button>
          </li>
        ))}
      </ul>
      {open ? (
        <ChatPanel
          chat={open}
          messages={messages}
          userTyping={(typingUntil[open.id] ?? 0) > Date.now()}
          userReadId={userRead}
        />
      ) : null}
    </section>
  );
}
