import { CloseOutline, PictureOutline } from 'antd-mobile-icons';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import { useUiTranslation } from '../i18n/index.ts';
import { classifyDecodeError, isImageFile, type ScanFailure } from './decode-errors.ts';
import './qr-scanner.css';

export interface QrScannerProps {
  open: boolean;
  /** Called with the decoded text; the overlay closes itself right after. */
  onResult: (text: string) => void;
  onClose: () => void;
}

type CameraState = 'opening' | 'scanning' | 'unavailable';
type Engine = typeof import('./scan-engine.ts');

/** Loads ZXing on first use only (a separate chunk). */
function loadEngine(): Promise<Engine> {
  return import('./scan-engine.ts');
}

function stopStream(stream: MediaStream | null): void {
  for (const track of stream?.getTracks() ?? []) track.stop();
}

async function loadImage(file: File): Promise<HTMLImageElement> {
  const url = URL.createObjectURL(file);
  const image = new Image();
  try {
    await new Promise<void>((resolve, reject) => {
      image.onload = () => resolve();
      image.onerror = () => reject(new Error('image did not load'));
      image.src = url;
    });
    return image;
  } finally {
    URL.revokeObjectURL(url);
  }
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

function ScannerOverlay({ onResult, onClose }: Omit<QrScannerProps, 'open'>) {
  const { t } = useUiTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [camera, setCamera] = useState<CameraState>('opening');
  const [recognising, setRecognising] = useState(false);
  const [failure, setFailure] = useState<ScanFailure | null>(null);
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

  useEffect(() => {
    let cancelled = false;
    let stream: MediaStream | null = null;
    let controls: { stop: () => void } | null = null;
    const start = async () => {
      const media = navigator.mediaDevices;
      if (!media?.getUserMedia) {
        setCamera('unavailable');
        return;
      }
      try {
        const [engine, opened] = await Promise.all([
          loadEngine(),
          media.getUserMedia({ video: { facingMode: 'environment' }, audio: false }),
        ]);
        stream = opened;
        const video = videoRef.current;
        if (cancelled || !video) return;
        video.srcObject = opened;
        await video.play();
        if (cancelled) return;
        setCamera('scanning');
        controls = engine.scanVideo(video, (text) => finishRef.current(text));
      } catch {
        if (!cancelled) setCamera('unavailable');
      } finally {
        // Closed while the camera was opening: release it at once.
        if (cancelled) stopStream(stream);
      }
    };
    void start();
    const video = videoRef.current;
    return () => {
      cancelled = true;
      controls?.stop();
      stopStream(stream);
      if (video) video.srcObject = null;
    };
  }, []);

  const onPick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setFailure(null);
    if (!isImageFile(file)) {
      setFailure('scanner.wrongFormat');
      return;
    }
    setRecognising(true);
    try {
      let image: HTMLImageElement;
      try {
        image = await loadImage(file);
      } catch {
        setFailure('scanner.wrongFormat');
        return;
      }
      try {
        const engine = await loadEngine();
        finish(engine.decodeImage(image));
      } catch (error) {
        setFailure(classifyDecodeError(error));
      }
    } finally {
      setRecognising(false);
    }
  };

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
