import path from 'node:path';
import { ROOT } from './paths.ts';
import { run } from './run.ts';

const RSPACK = path.join(ROOT, 'node_modules', '.bin', 'rspack');

/** Production build of one app (host or a remote) into its dist/ folder. */
export async function buildApp(appDir: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  await run(RSPACK, ['build', '--mode', 'production'], { cwd: appDir, env: { NODE_ENV: 'production', ...env } });
  return path.join(appDir, 'dist');
}
