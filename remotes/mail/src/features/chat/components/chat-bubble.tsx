import { useTranslation } from '@cw/shared-state/i18n';
import { PreviewableImage } from '@cw/shared-ui/image-preview';
import { NAMESPACE } from '../../../i18n.ts';
import type { ChatMessage } from '../api/chat.ts';
import type { PendingMessage } from '../utils/merge.ts';
import * as styles from './chat.module.css';

const timeOf = (iso: string, language: string) =>
  new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' }).format(new Date(iso));

function Attachment({ file }: { file: NonNullable<ChatMessage['attachment']> }) {
  if (file.kind === 'image')
    return <PreviewableImage className={styles.image} src={file.url} openOn="tap" alt={file.name} />;
  return (
    <a className={styles.file} href={`${file.url}?variant=original`} download={file.name} data-testid="chat-file">
      📎 {file.name}
    </a>
  );
}

/** A confirmed message; the user's own show "read" once support has read them. */
export function ChatBubble({ message, read }: { message: ChatMessage; read: boolean }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const mine = message.author === 'user';
  return (
    <li
      className={`${styles.bubble} ${mine ? styles.mine : styles.theirs}`}
      data-testid="chat-message"
      data-author={message.author}
      data-id={message.id}
    >
      {message.text}
      {message.attachment ? <Attachment file={message.attachment} /> : null}
      <span className={styles.meta}>
        {timeOf(message.createdAt, i18n.language)}
        {mine ? ` · ${read ? t('chat.read') : t('chat.sent')}` : ''}
      </span>
    </li>
  );
}

/** A message on its way: "sending", or "failed" with a retry that cannot send it twice. */
export function PendingBubble({ message, onRetry }: { message: PendingMessage; onRetry: () => void }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <li className={`${styles.bubble} ${styles.mine}`} data-testid="chat-pending" data-status={message.status}>
      {message.text || message.fileName}
      <span className={styles.meta}>
        {message.status === 'sending' ? (
          t('chat.sending')
        ) : (
          <button type="button" className={styles.failed} onClick={onRetry} data-testid="chat-retry">
            {t('chat.failed')}
          </button>
        )}
      </span>
    </li>
  );
}
