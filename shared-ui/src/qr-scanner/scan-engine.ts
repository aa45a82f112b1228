import { BrowserQRCodeReader, type IScannerControls } from '@zxing/browser';

/**
 * The part of the scanner that needs ZXing. It is only ever loaded with a
 * dynamic import when the overlay opens, so the library stays out of every
 * screen's first download.
 */

/** Default time between scans (product constant). */
export const SCAN_INTERVAL_MS = 500;

function reader(): BrowserQRCodeReader {
  return new BrowserQRCodeReader(undefined, {
    delayBetweenScanAttempts: SCAN_INTERVAL_MS,
    delayBetweenScanSuccess: SCAN_INTERVAL_MS,
  });
}

/** Decode frames of `stream` shown in `video` every 500 ms until a QR code is read. */
export async function scanStream(
  stream: MediaStream,
  video: HTMLVideoElement,
  onText: (text: string) => void,
): Promise<IScannerControls> {
  return reader().decodeFromStream(stream, video, (result) => {
    const text = result?.getText();
    if (text) onText(text);
  });
}

/** Decode one loaded image; throws ZXing's exceptions (see classifyDecodeError). */
export async function decodeImage(image: HTMLImageElement): Promise<string> {
  const result = await reader().decodeFromImageElement(image);
  return result.getText();
}
