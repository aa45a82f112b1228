import { fileTypeFromBuffer } from 'file-type';
import type { FileType } from './places.ts';

/** Bytes read from the start of a file to tell its type (file-type needs at most 4100). */
export const SNIFF_BYTES = 4100;

const BY_EXTENSION: Partial<Record<string, FileType>> = {
  jpg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  pdf: 'pdf',
  zip: 'zip',
  mp4: 'mp4',
};

/**
 * An SVG is text, so it has no magic number: after an optional BOM, XML declaration, comments and a
 * doctype, its first element must be `<svg`. Anything else that looks like markup (HTML) is not one.
 */
export function looksLikeSvg(head: Uint8Array): boolean {
  let text = Buffer.from(head)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  const prolog = /^\s*(<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE\s+svg[^>]*>)/i;
  for (let i = 0; i < 20; i++) {
    const next = text.replace(prolog, '');
    if (next === text) break;
    text = next;
  }
  return /^\s*<svg[\s>]/i.test(text);
}

/** The real type of a file from its first bytes, or null when it is none we know. */
export async function sniffType(head: Uint8Array): Promise<FileType | null> {
  const found = await fileTypeFromBuffer(head);
  if (found) {
    const known = BY_EXTENSION[found.ext];
    if (known) return known;
    if (found.ext !== 'xml') return null;
  }
  return looksLikeSvg(head) ? 'svg' : null;
}
