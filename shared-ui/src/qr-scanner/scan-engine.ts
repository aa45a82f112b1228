import { BrowserQRCodeReader } from '@zxing/browser';

/**
 * The part of the scanner that needs ZXing. It is only ever loaded with a
 * dynamic import when the overlay opens, so the library stays out of every
 * screen's first download.
 */

/** Default time between scans (product constant). */
export const SCAN_INTERVAL_MS = 500;

/**
 * Frames and pictures are decoded at most this many pixels on their long side.
 * ZXing's binarizer misreads very large modules (a QR filling a 1920 px frame),
 * and a smaller canvas is much cheaper on a phone every 500 ms.
 */
export const DECODE_MAX_SIDE_PX = 800;

/** Width and height that fit `maxSide` (never enlarged). */
export function fitSize(
  width: number,
  height: number,
  maxSide = DECODE_MAX_SIDE_PX,
): { width: number; height: number } {
  const scale = Math.min(1, maxSide / Math.max(width, height, 1));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

function reader(): BrowserQRCodeReader {
  return new BrowserQRCodeReader(undefined, {
    delayBetweenScanAttempts: SCAN_INTERVAL_MS,
    delayBetweenScanSuccess: SCAN_INTERVAL_MS,
  });
}

/**
 * Decode the playing `video` every 500 ms until a QR code is read. The frame
 * is drawn at the video's current size each time: cameras often start small
 * and switch resolution, and a canvas fixed at the first size would crop.
 */
export function scanVideo(video: HTMLVideoElement, onText: (text: string) => void): { stop: () => void } {
  const qr = reader();
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (context && video.videoWidth > 0 && video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA) {
      const { width, height } = fitSize(video.videoWidth, video.videoHeight);
      if (canvas.width !== width || canvas.height !== height) {
        canvas.width = width;
        canvas.height = height;
      }
      context.drawImage(video, 0, 0, width, height);
      try {
        const text = qr.decodeFromCanvas(canvas).getText();
        if (text) {
          stopped = true;
          onText(text);
          return;
        }
      } catch {
        // No readable code in this frame: try the next one.
      }
    }
    timer = setTimeout(tick, SCAN_INTERVAL_MS);
  };
  tick();
  return {
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Decode one loaded image, scaled down to fit first, then at full size (a
 * small code in a big photo); throws ZXing's exceptions (see classifyDecodeError).
 */
export function decodeImage(image: HTMLImageElement): string {
  const qr = reader();
  const natural = { width: image.naturalWidth, height: image.naturalHeight };
  const sizes = [fitSize(natural.width, natural.height)];
  if (sizes[0]?.width !== natural.width) sizes.push(natural);
  let failure: unknown = new Error('no size to decode');
  for (const size of sizes) {
    const canvas = document.createElement('canvas');
    canvas.width = size.width;
    canvas.height = size.height;
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) throw new Error('no 2d canvas');
    context.drawImage(image, 0, 0, size.width, size.height);
    try {
      return qr.decodeFromCanvas(canvas).getText();
    } catch (error) {
      failure = error;
    }
  }
  throw failure;
}
