import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** Where deployed artefacts live: host build, versioned remotes, registry. */
export const DEPLOY_DIR = path.resolve(process.env.STATIC_DIR ?? path.join(ROOT, '.deploy'));
export const REMOTE_NAMES = ['wallet', 'convert', 'rewards', 'mail', 'settings'] as const;
export type RemoteName = (typeof REMOTE_NAMES)[number];

export function isRemoteName(value: string | undefined): value is RemoteName {
  return (REMOTE_NAMES as readonly string[]).includes(value ?? '');
}

export function remoteDir(name: RemoteName): string {
  return path.join(ROOT, 'remotes', name);
}
