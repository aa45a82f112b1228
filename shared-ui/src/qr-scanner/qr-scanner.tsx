import { CloseOutline, PictureOutline } from 'antd-mobile-icons';
import { type ChangeEvent, useRef } from 'react';
import { createPortal } from 'react-dom';
import { useUiTranslation } from '../i18n/index.ts';
import { useCameraScan, useImagePick } from './use-scan.ts';
import './qr-scanner.css';

export interface QrScannerProps {
  open: boolean;
  /** Called with the decoded text; the overlay closes itself right after. */
  onResult: (text: string) => void;
  onClose: () => void;
}

/**
 * Full-screen "scan" overlay: the rear camera with corner markers and a hint,
 * decoding every 500 ms, plus a gallery picker that decodes an image file.
 * Closing (or unmounting) stops every camera track.
 */
export function QrScanner({ open, onResult, onClose }: QrScannerProps) {
  if (!open) return null;
  return createPortal(<ScannerOverlay onResult={onResult} onClose={onClose} />, document.body);
}

/** Close, the title, and the gallery picker. */
function ScannerBar({
  onClose,
  onPick,
}: {
  onClose: () => void;
  onPick: (event: ChangeEvent<HTMLInputElement>) => Promise<void>;
}) {
  const { t } = useUiTranslation();
  return (
    <header className="cw-scanner__bar">
      <button
        type="button"
        className="cw-scanner__icon"
        aria-label={t('scanner.close')}
        data-testid="qr-scanner-close"
        onClick={() => onClose()}
      >
        <CloseOutline aria-hidden />
      </button>
      <h2 id="cw-scanner-title" className="cw-scanner__title">
        {t('scanner.title')}
      </h2>
      <label className="cw-scanner__gallery" data-testid="qr-scanner-gallery">
        <PictureOutline aria-hidden />
        <span>{t('scanner.gallery')}</span>
        <input
          type="file"
          accept="image/*"
          className="cw-scanner__file"
          data-testid="qr-scanner-file"
          onChange={(event) => void onPick(event)}
        />
      </label>
    </header>
  );
}

function ScannerOverlay({ onResult, onClose }: Omit<QrScannerProps, 'open'>) {
  const { t } = useUiTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const doneRef = useRef(false);
  const callbacks = useRef({ onResult, onClose });
  callbacks.current = { onResult, onClose };

  const finish = (text: string) => {
    if (doneRef.current) return;
    doneRef.current = true;
    callbacks.current.onResult(text);
    callbacks.current.onClose();
  };
  const finishRef = useRef(finish);
  finishRef.current = finish;
  const camera = useCameraScan(videoRef, finishRef);
  const { recognising, failure, onPick } = useImagePick(finish);

  let status: string | null = null;
  if (recognising) status = t('scanner.recognising');
  else if (camera === 'opening') status = t('scanner.opening');
  else if (camera === 'unavailable') status = t('scanner.cameraUnavailable');

  return (
    <div
      className="cw-scanner"
      role="dialog"
      aria-modal="true"
      aria-labelledby="cw-scanner-title"
      data-testid="qr-scanner"
    >
      <ScannerBar onClose={onClose} onPick={onPick} />
      <div className="cw-scanner__view">
        <video ref={videoRef} className="cw-scanner__video" muted playsInline data-testid="qr-scanner-video" />
        <div className="cw-scanner__frame" aria-hidden="true">
          <span className="cw-scanner__corner cw-scanner__corner--tl" />
          <span className="cw-scanner__corner cw-scanner__corner--tr" />
          <span className="cw-scanner__corner cw-scanner__corner--bl" />
          <span className="cw-scanner__corner cw-scanner__corner--br" />
          {camera === 'scanning' && <span className="cw-scanner__line" />}
        </div>
        <p className="cw-scanner__hint">{t('scanner.hint')}</p>
        {status && (
          <p className="cw-scanner__status" role="status" data-testid="qr-scanner-status">
            {status}
          </p>
        )}
        {failure && (
          <p className="cw-scanner__error" role="alert" data-testid="qr-scanner-error">
            {t(failure)}
          </p>
        )}
      </div>
    </div>
  );
}
