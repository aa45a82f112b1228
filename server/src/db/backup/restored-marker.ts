import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A data folder made by `ops -- restore` ships nothing to the bucket until an operator adopts it
 * (review s8b B): a drill or a forensic copy started with the production environment (and the copied
 * signing key, as the restore procedure asks) would otherwise ship its own bases and WAL under the
 * production prefix, and a later `restore --to latest` could pick the drill's state. Adopting it
 * (`npm run ops -- backup adopt`, when the copy really becomes the primary) removes the marker.
 */
export const RESTORED_MARKER = 'restored-from-archive.json';

export async function markRestored(into: string, info: { target: string; base: string; at: Date }): Promise<void> {
  await writeFile(
    path.join(into, RESTORED_MARKER),
    `${JSON.stringify({ ...info, at: info.at.toISOString(), adopt: 'npm run ops -- backup adopt' })}\n`,
    { mode: 0o600 },
  );
}

export function isUnadoptedRestore(dataDir: string): boolean {
  return existsSync(path.join(dataDir, RESTORED_MARKER));
}

/** True when there was a marker to remove. */
export async function adoptRestored(dataDir: string): Promise<boolean> {
  if (!isUnadoptedRestore(dataDir)) return false;
  await rm(path.join(dataDir, RESTORED_MARKER));
  return true;
}
