/** Translation keys (namespace 'ui') of the scanner's gallery failures. */
export type ScanFailure = 'scanner.notFound' | 'scanner.wrongFormat' | 'scanner.failed';

/** Gallery images larger than this are refused as a wrong format (a QR photo is far smaller). */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** Whether a picked file can be an image the browser decodes. */
export function isImageFile(file: { type: string; size: number }): boolean {
  return file.type.startsWith('image/') && file.size > 0 && file.size <= MAX_IMAGE_BYTES;
}

/**
 * The message for a failed decode. ZXing throws NotFoundException when the
 * picture holds no QR code, Checksum/Format exceptions when one was seen but
 * could not be read; anything else (canvas, memory) is a recognition failure.
 */
const NOT_READABLE = new Set(['NotFoundException', 'ChecksumException', 'FormatException']);

export function classifyDecodeError(error: unknown): ScanFailure {
  // getKind() reads a static string, so it survives minified class names.
  const getKind = typeof error === 'object' && error !== null ? (error as { getKind?: unknown }).getKind : undefined;
  const kind = typeof getKind === 'function' ? String(getKind.call(error)) : '';
  if (NOT_READABLE.has(kind)) return 'scanner.notFound';
  return 'scanner.failed';
}
