import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError, ValidationError } from '../../errors/app-error.ts';
import type { FileType } from './places.ts';
import { SNIFF_BYTES } from './sniff.ts';

/** A file read from a multipart request onto disk: never held whole in memory. */
export interface ReceivedFile {
  /** A temporary file; the caller moves or deletes it. */
  file: string;
  bytes: number;
  sha256: string;
  /** The first SNIFF_BYTES bytes, to tell the type. */
  head: Buffer;
  /** The name the client gave, cleaned up: only ever shown, never used as a path. */
  name: string;
  /** The type the name's extension claims, when it names one we know (checked against the bytes). */
  claimed: FileType | null;
}

const EXTENSIONS: Record<string, FileType> = {
  jpg: 'jpg',
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  svg: 'svg',
  pdf: 'pdf',
  zip: 'zip',
  mp4: 'mp4',
};

/** The type a file name claims by its extension, or null for none we know. */
export function claimedType(name: string): FileType | null {
  const ext = /\.([A-Za-z0-9]{1,5})$/.exec(name)?.[1]?.toLowerCase();
  return ext === undefined ? null : (EXTENSIONS[ext] ?? null);
}

/** Room for the multipart framing around one file. */
const FRAMING_BYTES = 64 * 1024;

export function fileTooLarge(maxBytes: number): AppError {
  return new AppError('FILE_TOO_LARGE', `A file may be at most ${maxBytes} bytes`, { details: { limit: maxBytes } });
}

/** A display name: the last path segment, printable characters only, at most 120 of them. */
export function cleanFileName(raw: string | undefined): string {
  const base = (raw ?? '').split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
  const printable = base.replace(/[\u0000-\u001f\u007f-\u009f"]/g, '').trim();
  return Array.from(printable).slice(0, 120).join('') || 'file';
}

/** Counts, hashes and keeps the first bytes of what flows through. */
class Meter extends Transform {
  bytes = 0;
  readonly hash = createHash('sha256');
  private readonly headParts: Buffer[] = [];
  private headBytes = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error: null, chunk: Buffer) => void): void {
    this.bytes += chunk.length;
    this.hash.update(chunk);
    if (this.headBytes < SNIFF_BYTES) {
      const part = chunk.subarray(0, SNIFF_BYTES - this.headBytes);
      this.headParts.push(part);
      this.headBytes += part.length;
    }
    done(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.headParts);
  }
}

/**
 * Streams the request's one file part to a temporary file under `tmpDir`, cut off at `maxBytes`
 * while reading (413 FILE_TOO_LARGE). A request that announces a larger body is refused before
 * anything is read.
 */
export async function receiveFile(
  request: FastifyRequest,
  options: { maxBytes: number; tmpDir: string },
): Promise<ReceivedFile> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > options.maxBytes + FRAMING_BYTES) throw fileTooLarge(options.maxBytes);
  const part = await request.file({
    limits: { fileSize: options.maxBytes, files: 1, fields: 0, parts: 1 },
    throwFileSizeLimit: false,
  });
  if (!part) throw new ValidationError('No file', [{ field: 'file', message: 'is required', rule: 'required' }]);
  await mkdir(options.tmpDir, { recursive: true });
  const file = path.join(options.tmpDir, `${randomBytes(12).toString('hex')}.part`);
  const counter = new Meter();
  try {
    await pipeline(part.file, counter, createWriteStream(file));
    if (part.file.truncated) throw fileTooLarge(options.maxBytes);
  } catch (error) {
    await unlink(file).catch(() => undefined);
    throw error;
  }
  return {
    file,
    bytes: counter.bytes,
    sha256: counter.hash.digest('hex'),
    head: counter.head(),
    name: cleanFileName(part.filename),
    claimed: claimedType(cleanFileName(part.filename)),
  };
}
