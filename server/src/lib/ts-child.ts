import { ConfigError } from '../config.ts';

/**
 * The arguments that start a TypeScript entry point of ours as a Node child (the API server under the
 * launcher, the signer, keygen), always on `process.execPath` (the pinned Node).
 *
 * TS_CHILD_LOADER picks how the child reads TypeScript:
 *  - `tsx` (the default): `--import tsx <file>`, tsx's resolve and load hooks with its esbuild transform;
 *  - `strip`: `<file>` alone, Node 24's own type stripping, with no loader hooks. The server's code holds
 *    only erasable syntax for this (server/tsconfig.json `erasableSyntaxOnly`). The test runs set it
 *    (vitest.config.ts): the API server's module graph then loads in about 4 s of CPU instead of 6.
 */
export type TsChildLoader = 'tsx' | 'strip';

export function tsChildLoader(env: NodeJS.ProcessEnv = process.env): TsChildLoader {
  const loader = env.TS_CHILD_LOADER?.trim() || 'tsx';
  // A ConfigError, so that main-config-check and npm start report it with the other settings at start
  // instead of a stack trace when the first child is spawned.
  if (loader !== 'tsx' && loader !== 'strip') {
    throw new ConfigError([`TS_CHILD_LOADER must be tsx or strip (got "${loader}")`]);
  }
  return loader;
}

/** `[...loader args, script, ...args]` for `spawn(process.execPath, ...)`. */
export function tsChildArgs(script: string, args: readonly string[] = [], env: NodeJS.ProcessEnv = process.env) {
  return [...(tsChildLoader(env) === 'tsx' ? ['--import', 'tsx'] : []), script, ...args];
}
