export { classifyDecodeError, isImageFile, MAX_IMAGE_BYTES, type ScanFailure } from './decode-errors.ts';
export { QrScanner, type QrScannerProps } from './qr-scanner.tsx';
