import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runBackupCommand } from './ops-commands.ts';
import { isUnadoptedRestore, markRestored, RESTORED_MARKER } from './restored-marker.ts';

describe('a restored data folder ships nothing until adopted (review s8b B)', () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('is marked by the restore and adopted by `ops -- backup adopt`', async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'restored-marker-'));
    expect(isUnadoptedRestore(dir)).toBe(false);
    await markRestored(dir, { target: 'latest', base: 'b1', at: new Date() });
    expect(isUnadoptedRestore(dir)).toBe(true);
    expect((await stat(path.join(dir, RESTORED_MARKER))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(dir, RESTORED_MARKER), 'utf8')).toContain('backup adopt');
    const out: string[] = [];
    const ctx = {
      dataDir: dir,
      clusterDir: path.join(dir, 'pg'),
      runningUrl: async () => undefined,
      out: (l: string) => out.push(l),
      err: (l: string) => out.push(`ERR ${l}`),
    };
    expect(await runBackupCommand(ctx, ['adopt'])).toBe(0);
    expect(isUnadoptedRestore(dir)).toBe(false);
    expect(await runBackupCommand(ctx, ['adopt'])).toBe(0);
    expect(out).toEqual([`${dir} adopted: it ships to the bucket from its next start`, 'nothing to adopt']);
  });
});
