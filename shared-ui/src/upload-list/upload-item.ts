export type UploadStatus = 'uploading' | 'failed' | 'done';

export interface UploadItem {
  file: File;
  status: UploadStatus;
  /** Shown under a failed item. */
  message?: string;
  /** Preview URL (URL.createObjectURL); revoke it with `revokeUploadItem`. */
  objectUrl?: string;
  /** 0..1 while uploading, when known: drawn as a bar over the thumbnail. */
  progress?: number;
  /** What the server returned for the upload (e.g. the stored file's URL or id). */
  content?: string;
}

export interface UploadLimits {
  /** MIME pattern(s) as in `<input accept>`. Default 'image/*' (images only). */
  accept?: string;
  /** Bytes; unlimited by default. */
  maxSize?: number;
  /** Items; unlimited by default. */
  maxCount?: number;
}

export type UploadRejection = { file: File; reason: 'type' | 'size' | 'count' };

function matchesAccept(file: File, accept: string): boolean {
  const patterns = accept
    .split(',')
    .map((pattern) => pattern.trim().toLowerCase())
    .filter(Boolean);
  if (patterns.length === 0) return true;
  const type = file.type.toLowerCase();
  const name = file.name.toLowerCase();
  return patterns.some((pattern) => {
    if (pattern.startsWith('.')) return name.endsWith(pattern);
    if (pattern.endsWith('/*')) return type.startsWith(pattern.slice(0, -1));
    return type === pattern;
  });
}

/** Split picked files into accepted and rejected ones (type, size, then count). */
export function checkFiles(files: readonly File[], existing: number, limits: UploadLimits = {}) {
  const accept = limits.accept ?? 'image/*';
  const accepted: File[] = [];
  const rejected: UploadRejection[] = [];
  for (const file of files) {
    if (!matchesAccept(file, accept)) rejected.push({ file, reason: 'type' });
    else if (limits.maxSize !== undefined && file.size > limits.maxSize) rejected.push({ file, reason: 'size' });
    else if (limits.maxCount !== undefined && existing + accepted.length >= limits.maxCount)
      rejected.push({ file, reason: 'count' });
    else accepted.push(file);
  }
  return { accepted, rejected };
}

/** A new item in the 'uploading' state with a preview URL. */
export function createUploadItem(file: File): UploadItem {
  const objectUrl = typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined;
  return { file, status: 'uploading', objectUrl };
}

export function revokeUploadItem(item: UploadItem): void {
  if (item.objectUrl) URL.revokeObjectURL(item.objectUrl);
}

/** "1.5 MB" style size for messages. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
