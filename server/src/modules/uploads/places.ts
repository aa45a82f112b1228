import type { UploadPlace } from '../../db/schema-support.ts';

/** What the bytes turned out to be: our own name for the type, never the one the client sent. */
export type FileType = 'jpg' | 'png' | 'gif' | 'webp' | 'svg' | 'pdf' | 'zip' | 'mp4';

export const MEDIA_TYPES: Record<FileType, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  pdf: 'application/pdf',
  zip: 'application/zip',
  mp4: 'video/mp4',
};

/** Raster types re-encoded by sharp before anyone sees them. */
export const RASTER_TYPES: ReadonlySet<FileType> = new Set(['jpg', 'png', 'gif', 'webp']);

const MiB = 1024 * 1024;

/** Per place: the largest file (checked while reading) and the types allowed there. */
export const PLACE_RULES: Record<UploadPlace, { maxBytes: number; types: readonly FileType[] }> = {
  /** Support tickets: pictures describing the problem (the specification's jpg, png, gif or svg, <= 5 MB). */
  ticket: { maxBytes: 5 * MiB, types: ['jpg', 'png', 'gif', 'svg'] },
  /** Leave-a-message (visitors too): up to 5 pictures like a ticket's. */
  message: { maxBytes: 5 * MiB, types: ['jpg', 'png', 'gif', 'svg'] },
  /** Live chat: pictures and documents up to 50 MB. */
  chat: { maxBytes: 50 * MiB, types: ['jpg', 'png', 'gif', 'webp', 'svg', 'pdf', 'zip', 'mp4'] },
};

export const UPLOAD_PLACES = Object.keys(PLACE_RULES) as UploadPlace[];

/** A decoded image larger than this many pixels is refused (a small file can decode to gigabytes). */
export const PIXEL_LIMIT = 40_000_000;
/** Longest side of an SVG's PNG rendering. */
export const SVG_RENDER_MAX_PX = 2048;
/** Uploads one user may make in an hour, whatever their size. */
export const UPLOADS_PER_HOUR = 100;
/**
 * Uploads from one network without an account (leave-a-message) in an hour: an IPv4 address or an
 * IPv6 /64 (one host commonly holds a whole /64, so counting addresses counted nothing; issue 38).
 */
export const VISITOR_UPLOADS_PER_HOUR = 20;
/** Bytes one such network may upload in an hour (a message takes up to 5 pictures of 5 MB). */
export const VISITOR_UPLOAD_BYTES_PER_HOUR = 20 * MiB;
