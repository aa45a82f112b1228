import { useErrorMessage } from '@cw/shared-state/errors';
import { createUploadItem, revokeUploadItem, type UploadItem } from '@cw/shared-ui/upload-list';
import { useCallback, useEffect, useRef, useState } from 'react';
import { type UploadPlace, uploadFile } from './upload.ts';

/** A picked file and its upload: `content` is the upload id once the server has checked it. */
export interface PictureItem extends UploadItem {
  key: number;
  controller: AbortController;
}

let nextKey = 0;

/**
 * Pictures of a message: each starts uploading when picked (progress, cancel by removing it), so
 * the message itself only names finished upload ids. A refused file stays with the server's reason.
 */
export function usePictures(place: UploadPlace) {
  const errorMessage = useErrorMessage();
  const [items, setItems] = useState<PictureItem[]>([]);
  const live = useRef(items);
  live.current = items;
  const update = useCallback((key: number, patch: Partial<PictureItem>) => {
    setItems((all) => all.map((item) => (item.key === key ? { ...item, ...patch } : item)));
  }, []);

  const add = (files: File[]) => {
    const fresh = files.map((file) => ({
      ...createUploadItem(file),
      key: nextKey++,
      controller: new AbortController(),
    }));
    setItems((all) => [...all, ...fresh]);
    for (const item of fresh)
      uploadFile(item.file, place, {
        signal: item.controller.signal,
        onProgress: (fraction) => update(item.key, { progress: fraction }),
      }).then(
        (upload) => update(item.key, { status: 'done', content: upload.id, progress: 1 }),
        (error: unknown) => {
          if (error instanceof DOMException && error.name === 'AbortError') return;
          update(item.key, { status: 'failed', message: errorMessage(error, 'FILE_UPLOAD_FAILED') });
        },
      );
  };

  const remove = (index: number) => {
    const item = live.current[index];
    if (!item) return;
    item.controller.abort();
    revokeUploadItem(item);
    setItems((all) => all.filter((other) => other.key !== item.key));
  };

  const reset = () => {
    for (const item of live.current) revokeUploadItem(item);
    setItems([]);
  };

  // Leaving the screen cancels what is still uploading and frees the previews.
  useEffect(
    () => () => {
      for (const item of live.current) {
        item.controller.abort();
        revokeUploadItem(item);
      }
    },
    [],
  );

  return {
    place,
    items,
    add,
    remove,
    reset,
    ids: items.filter((i) => i.status === 'done' && i.content).map((i) => i.content as string),
    busy: items.some((i) => i.status === 'uploading'),
    failed: items.some((i) => i.status === 'failed'),
  };
}
