import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Open tabs keep running the host version they loaded, and load its lazy chunks later: a host deploy
 * that deleted the previous folder made those chunks 404. The previous version's files (hashed chunk
 * names, so no clash with the new build) are carried into the new folder and kept for a grace period.
 */
export const HOST_FILES_GRACE_MS = 24 * 60 * 60 * 1000;
/** Which carried-over files expire when (relative path -> epoch ms); not one of the build's own. */
export const RETAINED_FILE = '.retained.json';
/** Never carried over: the entry pages (index.html, the pre-rendered landing pages) must be the new version's. */
const NOT_RETAINED = new Set(['index.html', RETAINED_FILE]);
const NOT_RETAINED_DIR = `prerendered${path.sep}`;

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { withFileTypes: true, recursive: true });
    return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

async function readRetained(dir: string): Promise<Record<string, number>> {
  try {
    return JSON.parse(await readFile(path.join(dir, RETAINED_FILE), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Copies into `next` (the staged new version) every file of `previous` (the live one) that `next`
 * lacks: its own files for `graceMs` from `now`, files it carried itself until their own expiry.
 * Returns how many were carried.
 */
export async function retainPrevious(
  previous: string,
  next: string,
  now: number = Date.now(),
  graceMs: number = HOST_FILES_GRACE_MS,
): Promise<number> {
  const carried = await readRetained(previous);
  const present = new Set(await filesUnder(next));
  const retained: Record<string, number> = {};
  for (const file of await filesUnder(previous)) {
    if (NOT_RETAINED.has(path.basename(file)) || file.startsWith(NOT_RETAINED_DIR) || present.has(file)) continue;
    const expiresAt = carried[file] ?? now + graceMs;
    if (expiresAt <= now) continue;
    await mkdir(path.dirname(path.join(next, file)), { recursive: true });
    await copyFile(path.join(previous, file), path.join(next, file));
    retained[file] = expiresAt;
  }
  await writeFile(path.join(next, RETAINED_FILE), `${JSON.stringify(retained, null, 2)}\n`);
  return Object.keys(retained).length;
}
