import { useTranslation } from '@cw/shared-state/i18n';
import { PreviewableImage } from '@cw/shared-ui/image-preview';
import { NAMESPACE } from '../../../i18n.ts';
import { formatTime } from '../../../lib/format-time.ts';
import type { TicketMessage } from '../api/tickets.ts';
import * as styles from './tickets.module.css';

function Attachments({ files }: { files: TicketMessage['attachments'] }) {
  const images = files.filter((f) => f.kind === 'image').map((f) => f.url);
  if (files.length === 0) return null;
  return (
    <span className={styles.pictures}>
      {files.map((file) =>
        file.kind === 'image' ? (
          <PreviewableImage
            key={file.id}
            className={styles.picture}
            src={file.url}
            images={images}
            index={images.indexOf(file.url)}
            openOn="tap"
            alt={file.name}
          />
        ) : (
          <a key={file.id} className={styles.file} href={`${file.url}?variant=original`} download={file.name}>
            {file.name}
          </a>
        ),
      )}
    </span>
  );
}

/** The conversation of a ticket: the user's messages on the right, support's on the left. */
export function TicketThread({ messages }: { messages: readonly TicketMessage[] }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  return (
    <ol className={styles.thread} data-testid="ticket-thread">
      {messages.map((message) => (
        <li
          key={message.id}
          className={`${styles.message} ${message.author === 'user' ? styles.mine : styles.theirs}`}
          data-testid="ticket-message"
          data-author={message.author}
        >
          <span className={styles.who}>{t(`tickets.author.${message.author}`)}</span>
          {message.text}
          <Attachments files={message.attachments} />
          <span className={styles.time}>{formatTime(message.createdAt, i18n.language)}</span>
        </li>
      ))}
    </ol>
  );
}
