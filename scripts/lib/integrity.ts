/**
 * Subresource integrity of a deployed remote (issue 35 item 1). The registry records, for every
 * version, the URL of its remote entry script and manifest and their sha384 digests; the host's
 * federation runtime plugin (host/src/federation/integrity-plugin.ts) makes the browser refuse any
 * other bytes. The digests are computed here, by the deploy, from the bytes as they will be served:
 * never taken from the build or from the team that ships the remote.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/** `sha384-<base64>`: the only algorithm the registry accepts (the CSP level 2 strongest common one). */
export const SRI_PATTERN = /^sha384-[A-Za-z0-9+/]{64}$/;
/** A remote entry or manifest larger than this is refused rather than read into memory. */
const MAX_SERVED_BYTES = 8 * 1024 * 1024;
const DOWNLOAD_TIMEOUT_MS = 15_000;

export function sriOf(bytes: Uint8Array): string {
  return `sha384-${createHash('sha384').update(bytes).digest('base64')}`;
}

/** What the registry records of a version's served files. */
export interface SealedEntry {
  manifest: string;
  manifestIntegrity: string;
  entry: string;
  integrity: string;
}

export class IntegrityRefusedError extends Error {
  override readonly name = 'IntegrityRefusedError';
}

const isAbsolute = (url: string) => /^https?:\/\//i.test(url);

/**
 * The bytes at `url` as a browser would get them: an absolute URL (a team's CDN) is downloaded; a
 * path on our own origin is downloaded from APP_URL when set (the deploy checks the running server),
 * else read from the deploy folder the server serves `/remotes/` from.
 */
export async function servedBytes(url: string, deployDir: string): Promise<Uint8Array> {
  const base = process.env.APP_URL;
  if (isAbsolute(url) || base) {
    const response = await fetch(new URL(url, base), {
      signal: AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS),
      // Identity: we hash what the script's bytes are, whatever encoding carries them.
      headers: { 'accept-encoding': 'identity', 'cache-control': 'no-cache' },
    });
    if (!response.ok) throw new IntegrityRefusedError(`${url} answered ${response.status}`);
    const body = new Uint8Array(await response.arrayBuffer());
    if (body.byteLength > MAX_SERVED_BYTES)
      throw new IntegrityRefusedError(`${url} is larger than ${MAX_SERVED_BYTES}`);
    return body;
  }
  if (!url.startsWith('/remotes/') || url.includes('..'))
    throw new IntegrityRefusedError(`${url} is not a remote path`);
  return readFile(path.join(deployDir, url));
}

interface ManifestMeta {
  metaData?: { publicPath?: string; remoteEntry?: { name?: string; path?: string } };
}

/** The remote entry's URL a manifest points at (publicPath 'auto': beside the manifest). */
export function entryUrlOf(manifestUrl: string, manifest: ManifestMeta): string {
  const meta = manifest.metaData;
  const file = meta?.remoteEntry?.name;
  if (!file || !/^[\w.-]+\.js$/.test(file)) throw new IntegrityRefusedError(`${manifestUrl} names no remote entry`);
  const dir = meta?.remoteEntry?.path ?? '';
  if (dir.includes('..')) throw new IntegrityRefusedError(`${manifestUrl}: remote entry path ${dir} leaves its folder`);
  const publicPath = meta?.publicPath && meta.publicPath !== 'auto' ? meta.publicPath : null;
  const relative = `${dir ? `${dir.replace(/\/+$/, '')}/` : ''}${file}`;
  if (publicPath) return new URL(relative, publicPath).href;
  return `${manifestUrl.slice(0, manifestUrl.lastIndexOf('/') + 1)}${relative}`;
}

/**
 * Seals one version: downloads its manifest and entry from where they are served and hashes both.
 * `pinned` (REMOTE_ORIGINS) are the only other origins a remote may live on; one elsewhere is refused.
 */
export async function sealVersion(
  manifestUrl: string,
  deployDir: string,
  pinned: readonly string[] = [],
): Promise<SealedEntry> {
  if (isAbsolute(manifestUrl) && !pinned.includes(new URL(manifestUrl).origin)) {
    throw new IntegrityRefusedError(`${new URL(manifestUrl).origin} is not in REMOTE_ORIGINS`);
  }
  const manifestBytes = await servedBytes(manifestUrl, deployDir);
  const manifest = JSON.parse(new TextDecoder().decode(manifestBytes)) as ManifestMeta;
  const entry = entryUrlOf(manifestUrl, manifest);
  if (isAbsolute(entry) && !pinned.includes(new URL(entry).origin)) {
    throw new IntegrityRefusedError(`${manifestUrl} loads its entry from ${new URL(entry).origin}, not pinned`);
  }
  const sealed = {
    manifest: manifestUrl,
    manifestIntegrity: sriOf(manifestBytes),
    entry,
    integrity: sriOf(await servedBytes(entry, deployDir)),
  };
  assertSealed(sealed);
  return sealed;
}

/**
 * Fail closed: an entry on another origin without both digests is never written to the registry
 * (a same-origin one from before issue 35 may lack them; the next deploy or rollback seals it).
 */
export function assertSealed(entry: Partial<SealedEntry> & { manifest: string }): void {
  const crossOrigin = isAbsolute(entry.manifest) || (entry.entry !== undefined && isAbsolute(entry.entry));
  const sealed = SRI_PATTERN.test(entry.integrity ?? '') && SRI_PATTERN.test(entry.manifestIntegrity ?? '');
  if (crossOrigin && !sealed) throw new IntegrityRefusedError(`${entry.manifest} is cross-origin without integrity`);
  if (entry.integrity !== undefined && !SRI_PATTERN.test(entry.integrity)) {
    throw new IntegrityRefusedError(`${entry.manifest}: integrity ${entry.integrity} is not sha384`);
  }
}
