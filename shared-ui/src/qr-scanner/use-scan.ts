import { type ChangeEvent, type RefObject, useEffect, useState } from 'react';
import { classifyDecodeError, isImageFile, type ScanFailure } from './decode-errors.ts';

export type CameraState = 'opening' | 'scanning' | 'unavailable';
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
 * Opens the rear camera into `videoRef` and decodes every 500 ms (the engine loads on first use);
 * `onText` gets the first result. Closing (or unmounting) stops every camera track.
 */
export function useCameraScan(videoRef: RefObject<HTMLVideoElement | null>, onText: RefObject<(text: string) => void>) {
  const [camera, setCamera] = useState<CameraState>('opening');
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
        controls = engine.scanVideo(video, (text) => onText.current(text));
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

  return camera;
}

/** Decodes a picked image file; says why when it is not an image or holds no readable code. */
export function useImagePick(finish: (text: string) => void) {
  const [recognising, setRecognising] = useState(false);
  const [failure, setFailure] = useState<ScanFailure | null>(null);
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

  return { recognising, failure, onPick };
}
