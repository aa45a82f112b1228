import { AddOutline, CloseOutline, ExclamationCircleFill } from 'antd-mobile-icons';
import { type ChangeEvent, useRef } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import { Spinner } from '../internal/spinner.tsx';
import { toast } from '../toast/toast.ts';
import { checkFiles, formatBytes, type UploadItem, type UploadLimits } from './upload-item.ts';
import './upload-list.css';

export interface UploadListProps extends UploadLimits {
  items: readonly UploadItem[];
  /** Accepted files (already checked against accept, maxSize and maxCount). */
  onAdd: (files: File[]) => void;
  onRemove?: (index: number) => void;
  /** Tap on an item (e.g. open the image preview). */
  onItemClick?: (index: number) => void;
  /** Allow picking several files at once. Default true. */
  multiple?: boolean;
  disabled?: boolean;
}

/** One thumbnail: uploading (spinner), failed (mark and message) or done, with its remove button. */
function UploadTile(props: { item: UploadItem; onClick: () => void; onRemove: (() => void) | undefined }) {
  const { t } = useUiTranslation();
  const { item } = props;
  return (
    <li
      className={`cw-upload__item cw-upload__item--${item.status}`}
      data-testid="upload-item"
      data-status={item.status}
    >
      <button type="button" className="cw-upload__thumb" onClick={props.onClick} aria-label={item.file.name}>
        {item.objectUrl && <img src={item.objectUrl} alt="" />}
      </button>
      {item.status === 'uploading' && (
        <span className="cw-upload__mask">
          <Spinner size={20} className="cw-spinner--light" label={t('upload.uploading')} />
          {item.progress !== undefined && (
            <progress
              className="cw-upload__progress"
              data-testid="upload-progress"
              max={1}
              value={item.progress}
              aria-label={t('upload.uploading')}
            />
          )}
        </span>
      )}
      {item.status === 'failed' && (
        <span className="cw-upload__mask cw-upload__mask--failed" role="alert">
          <ExclamationCircleFill aria-hidden className="cw-upload__mark" />
          <span className="cw-upload__message">{item.message ?? t('upload.failed')}</span>
        </span>
      )}
      {props.onRemove && (
        <button
          type="button"
          className="cw-upload__remove"
          data-testid="upload-remove"
          aria-label={t('upload.remove')}
          onClick={props.onRemove}
        >
          <CloseOutline aria-hidden />
        </button>
      )}
    </li>
  );
}

/**
 * Upload thumbnails: uploading (spinner), failed (mark and message) or done,
 * plus an add tile. Images only and unlimited size/count unless props say otherwise.
 */
export function UploadList({
  items,
  onAdd,
  onRemove,
  onItemClick,
  multiple = true,
  disabled,
  ...limits
}: UploadListProps) {
  const { t } = useUiTranslation();
  const input = useRef<HTMLInputElement>(null);
  const accept = limits.accept ?? 'image/*';
  const full = limits.maxCount !== undefined && items.length >= limits.maxCount;

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    const { accepted, rejected } = checkFiles(files, items.length, limits);
    const first = rejected[0];
    if (first?.reason === 'type') toast.fail(t('upload.notImage'));
    else if (first?.reason === 'size') toast.fail(t('upload.tooLarge', { size: formatBytes(limits.maxSize ?? 0) }));
    else if (first?.reason === 'count') toast.fail(t('upload.tooMany', { count: limits.maxCount }));
    if (accepted.length > 0) onAdd(accepted);
  };

  return (
    <ul className="cw-upload" data-testid="upload-list">
      {items.map((item, index) => (
        <UploadTile
          key={item.objectUrl ?? `${item.file.name}-${index}`}
          item={item}
          onClick={() => onItemClick?.(index)}
          onRemove={onRemove ? () => onRemove(index) : undefined}
        />
      ))}
      {!full && (
        <li className="cw-upload__item">
          <label className={`cw-upload__add${disabled ? ' cw-upload__add--disabled' : ''}`}>
            <AddOutline aria-hidden />
            <span className="visually-hidden">{t('upload.add')}</span>
            <input
              ref={input}
              type="file"
              accept={accept}
              multiple={multiple}
              disabled={disabled}
              className="cw-upload__input"
              data-testid="upload-input"
              onChange={onChange}
            />
          </label>
        </li>
      )}
    </ul>
  );
}
