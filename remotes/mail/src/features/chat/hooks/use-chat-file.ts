import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useEffect, useRef, useState } from 'react';
import { UPLOAD_RULES, uploadFile } from '../../../lib/upload.ts';

export interface FileUpload {
  name: string;
  /** 0..1 */
  progress: number;
  error: string | null;
}

/**
 * One file on its way into the chat (up to 50 MB): progress, cancel, and the server's reason when
 * it is refused. Once checked and stored, `onUploaded` sends it as a message.
 */
export function useChatFile(onUploaded: (uploadId: string, name: string) => void) {
  const errorMessage = useErrorMessage();
  const [upload, setUpload] = useState<FileUpload | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = (file: File) => {
    controller.current?.abort();
    if (file.size > UPLOAD_RULES.chat.maxSize) {
      setUpload({
        name: file.name,
        progress: 0,
        error: errorMessage(new ApiError({ code: 'FILE_TOO_LARGE', message: 'too large', status: 413 })),
      });
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    setUpload({ name: file.name, progress: 0, error: null });
    uploadFile(file, 'chat', {
      signal: abort.signal,
      onProgress: (progress) => setUpload((u) => (u ? { ...u, progress } : u)),
    }).then(
      (done) => {
        setUpload(null);
        onUploaded(done.id, done.name);
      },
      (error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') return setUpload(null);
        setUpload((u) => (u ? { ...u, error: errorMessage(error, 'FILE_UPLOAD_FAILED') } : u));
      },
    );
  };

  const cancel = () => {
    controller.current?.abort();
    setUpload(null);
  };

  return { upload, start, cancel };
}
