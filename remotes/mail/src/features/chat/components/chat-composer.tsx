import { useTranslation } from '@cw/shared-state/i18n';
import { Button } from 'antd-mobile';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { UPLOAD_RULES } from '../../../lib/upload.ts';
import { CHAT_TEXT_MAX } from '../api/chat.ts';
import type { useChat } from '../hooks/use-chat.ts';
import { useChatFile } from '../hooks/use-chat-file.ts';
import * as styles from './chat.module.css';

/** A file on its way: progress and cancel, or the reason it was refused. */
function UploadBar({ file }: { file: ReturnType<typeof useChatFile> }) {
  const { t } = useTranslation(NAMESPACE);
  if (!file.upload) return null;
  return (
    <div className={styles.upload} data-testid="chat-upload" role={file.upload.error ? 'alert' : 'status'}>
      <span>{file.upload.name}</span>
      {file.upload.error ? (
        <span data-testid="chat-upload-error">{file.upload.error}</span>
      ) : (
        <progress
          max={1}
          value={file.upload.progress}
          data-testid="chat-upload-progress"
          aria-label={t('chat.uploading')}
        />
      )}
      <button type="button" onClick={file.cancel} data-testid="chat-upload-cancel">
        {file.upload.error ? t('chat.dismiss') : t('chat.cancel')}
      </button>
    </div>
  );
}

/** Text, a file, send; typing tells support you are writing. */
export function ChatComposer({ chat }: { chat: ReturnType<typeof useChat> }) {
  const { t } = useTranslation(NAMESPACE);
  const [text, setText] = useState('');
  const file = useChatFile((uploadId, name) => chat.send({ text: '', uploadId, fileName: name }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    chat.send({ text: text.trim() });
    setText('');
  };
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const picked = event.target.files?.[0];
    event.target.value = '';
    if (picked) file.start(picked);
  };
  return (
    <>
      <UploadBar file={file} />
      <form className={styles.composer} onSubmit={onSubmit} data-testid="chat-composer">
        <label className={styles.attach} aria-label={t('chat.attach')}>
          +
          <input type="file" accept={UPLOAD_RULES.chat.accept} onChange={onFile} data-testid="chat-file-input" />
        </label>
        <input
          className={styles.input}
          value={text}
          maxLength={CHAT_TEXT_MAX}
          placeholder={t('chat.placeholder')}
          aria-label={t('chat.placeholder')}
          onChange={(event) => {
            setText(event.target.value);
            chat.typing();
          }}
          data-testid="chat-input"
        />
        <Button color="primary" size="small" type="submit" disabled={text.trim() === ''} data-testid="chat-send">
          {t('chat.send')}
        </Button>
      </form>
    </>
  );
}
