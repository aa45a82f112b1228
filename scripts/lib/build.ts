import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './paths.ts';
import { run } from './run.ts';

const RSPACK = path.join(ROOT, 'node_modules', '.bin', 'rspack');

/**
 * Production build of one app (host or a remote) into a private temporary
 * folder, so two builds of the same app (a deploy while the tests build) never
 * write into each other's output. The caller copies what it needs and may
 * delete the folder.
 */
export async function buildApp(appDir: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const outDir = await mkdtemp(path.join(os.tmpdir(), `cw-build-${path.basename(appDir)}-`));
  await run(RSPACK, ['build', '--mode', 'production', '--output-path', outDir], {
    cwd: appDir,
    env: { NODE_ENV: 'production', ...env },
  });
  return outDir;
}
