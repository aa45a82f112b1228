import { useTranslation } from '@cw/shared-state/i18n';
import { Page } from '@cw/shared-ui/page';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { useEffect, useRef } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useChat } from '../hooks/use-chat.ts';
import { idOrder } from '../utils/merge.ts';
import * as styles from './chat.module.css';
import { ChatBubble, PendingBubble } from './chat-bubble.tsx';
import { ChatComposer } from './chat-composer.tsx';

/** The conversation: earlier pages on demand, then every message, then what is being sent. */
function Conversation({ chat }: { chat: ReturnType<typeof useChat> }) {
  const { t } = useTranslation(NAMESPACE);
  const list = useRef<HTMLOListElement>(null);
  const count = chat.messages.length + chat.pending.length;
  // New messages scroll into view; loading earlier ones does not (the newest stays where it was).
  const newest = chat.messages.at(-1)?.id;
  useEffect(() => {
    list.current?.scrollTo({ top: list.current.scrollHeight });
  }, [newest, chat.pending.length]);
  return (
    <ol className={styles.list} ref={list} data-testid="chat-list" data-count={count}>
      {chat.history.hasNextPage ? (
        <li>
          <button
            type="button"
            className={styles.earlier}
            onClick={() => void chat.history.fetchNextPage()}
            data-testid="chat-earlier"
          >
            {t('chat.earlier')}
          </button>
        </li>
      ) : null}
      {chat.messages.length === 0 && chat.pending.length === 0 ? (
        <li className={styles.typing}>{t('chat.empty')}</li>
      ) : null}
      {chat.messages.map((m) => (
        <ChatBubble key={m.id} message={m} read={m.author === 'user' && idOrder(chat.operatorReadId, m.id) >= 0} />
      ))}
      {chat.pending.map((p) => (
        <PendingBubble key={p.clientId} message={p} onRetry={() => chat.retry(p)} />
      ))}
    </ol>
  );
}

/** /chat: live chat with support (text, files up to 50 MB, typing and read receipts). */
export default function ChatScreen() {
  const { t } = useTranslation(NAMESPACE);
  const chat = useChat();
  const title = t('chat.title');
  if (chat.history.isPending)
    return (
      <Page title={title}>
        <LoadingState />
      </Page>
    );
  if (chat.history.isError)
    return (
      <Page title={title}>
        <ErrorState onRetry={() => void chat.history.refetch()} />
      </Page>
    );
  return (
    <Page title={title}>
      <div className={styles.screen} data-testid="chat-screen" data-connection={chat.connection}>
        {chat.connection === 'reconnecting' ? (
          <p className={styles.banner} role="status">
            {t('chat.reconnecting')}
          </p>
        ) : null}
        <Conversation chat={chat} />
        {chat.operatorTyping ? (
          <p className={styles.typing} data-testid="chat-typing">
            {t('chat.typing')}
          </p>
        ) : null}
        <ChatComposer chat={chat} />
      </div>
    </Page>
  );
}
