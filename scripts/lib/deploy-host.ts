import { cp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { buildApp } from './build.ts';
import { precompress } from './compress.ts';
import { DEPLOY_DIR, ROOT } from './paths.ts';
import { prerenderLanding } from './prerender.ts';
import { retainPrevious } from './retain-previous.ts';

/**
 * Build the host, with its landing screens pre-rendered to HTML (prerender.ts), and swap it into place
 * (the host never needs rebuilding for a remote deploy).
 */
export function deployHost(): Promise<void> {
  return deployApp('host', 'host', prerenderLanding);
}

/** Build the operator console (ops-console/, served at /ops) and swap it into place. */
export function deployOpsConsole(): Promise<void> {
  return deployApp('ops-console', 'ops');
}

/** Builds the app in `appDir` and replaces DEPLOY_DIR/<target> with it in one rename. */
async function deployApp(
  appDir: string,
  targetName: string,
  afterBuild?: (dist: string) => Promise<unknown>,
): Promise<void> {
  const dist = await buildApp(path.join(ROOT, appDir));
  await afterBuild?.(dist);
  const target = path.join(DEPLOY_DIR, targetName);
  const staging = `${target}.staging-${process.pid}`;
  const old = `${target}.old-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await cp(dist, staging, { recursive: true, filter: (src) => !src.endsWith('.map') });
  await precompress(staging);
  // Open tabs of the live version load its lazy chunks later: they stay (for a grace period).
  await retainPrevious(target, staging);
  await rename(target, old).catch(() => undefined);
  await rename(staging, target);
  await rm(old, { recursive: true, force: true });
  await rm(dist, { recursive: true, force: true });
}
