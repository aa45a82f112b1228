import { ValidationError } from '../errors/app-error.ts';

/**
 * Keyset cursors of newest-first lists: the last row's sort key (e.g. `created_at|id`), base64url.
 * The last part is a row id (uuid) and the one before it a time; anything else is a 400 naming `cursor`.
 */
export function encodeCursor(parts: readonly string[]): string {
  return Buffer.from(parts.join('|')).toString('base64url');
}

export function decodeCursor(cursor: string, count: number): string[] {
  const parts = Buffer.from(cursor, 'base64url').toString().split('|');
  const valid =
    parts.length === count &&
    /^[0-9a-f-]{36}$/.test(parts.at(-1) ?? '') &&
    !Number.isNaN(new Date(parts.at(-2) ?? '').getTime());
  if (!valid)
    throw new ValidationError('Bad cursor', [
      { field: 'cursor', message: 'not a cursor of this list', rule: 'format' },
    ]);
  return parts;
}

/** The common key of newest-first lists: the row's creation time and its id. */
export interface TimeIdKey {
  createdAt: Date;
  id: string;
}

export function encodeTimeIdCursor(key: TimeIdKey): string {
  return encodeCursor([key.createdAt.toISOString(), key.id]);
}

export function decodeTimeIdCursor(cursor: string): TimeIdKey {
  const [at, id] = decodeCursor(cursor, 2);
  return { createdAt: new Date(at as string), id: id as string };
}
