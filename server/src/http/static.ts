import { existsSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { decodedPath } from './console-surface.ts';
import { LANGUAGE_COOKIE, prerenderedPage } from './prerendered-page.ts';
import { type RemotesJsonOptions, registerRemotesJson } from './remotes-json.ts';

const NO_CACHE = 'no-cache';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Strips a precompressed suffix: `app.js.br` -> `app.js`. */
function logicalName(filePath: string): string {
  return path.basename(filePath).replace(/\.(br|gz)$/, '');
}

/** A build file named by its content hash (`main.8207330d18.js`): it never changes under that name. */
const CONTENT_HASHED = /\.[0-9a-f]{6,}\.[a-z0-9]+$/;

/** host/: content-hashed files are immutable; the rest (HTML, the web app manifest, icons) is revalidated. */
export function hostCacheControl(filePath: string): string {
  return CONTENT_HASHED.test(logicalName(filePath)) ? IMMUTABLE : NO_CACHE;
}

/** remotes/<name>/<version>/: entry points are stable names, everything else is content-hashed. */
export function remoteCacheControl(filePath: string): string {
  const name = logicalName(filePath);
  return name === 'mf-manifest.json' || name === 'remoteEntry.js' ? NO_CACHE : IMMUTABLE;
}

/** A 404 for the error handler (a statusCode in 4xx maps to NOT_FOUND). */
class OutsideRootError extends Error {
  readonly statusCode = 404;
  constructor() {
    super('Not found');
  }
}

/**
 * @fastify/send's `onFile` hook: refuses a file whose real path (links resolved) leaves `root`
 * (review s8, finding 1: a symlink in a deployed version folder made /remotes/ serve any file on the
 * host, with CORS *). The deploy refuses links too (scripts/lib/prebuilt.ts); this is the second line.
 */
export function insideRoot(root: string): (file: string) => Promise<void> {
  return async (file) => {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]).catch(() => [null, null]);
    if (!realRoot || !realFile?.startsWith(realRoot + path.sep)) throw new OutsideRootError();
  };
}

const spaExcluded = /^\/(api|metrics|remotes|dev)(\/|$)/;
/** The operator console's pages: its own index.html, not the user app's. */
const opsPages = /^\/ops(\/|$)/;

/** Whether a request that matched no file should get host/index.html (client-side routing). */
export function wantsSpaFallback(request: Pick<FastifyRequest, 'method' | 'url' | 'headers'>): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  // Decoded as the router and the console-surface hook decode it (`/%61pi/x` is `/api/x`).
  const pathname = decodedPath(request);
  if (spaExcluded.test(pathname)) return false;
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  if (lastSegment.includes('.')) return false;
  return (request.headers.accept ?? '').includes('text/html');
}

export type SpaFallback = (request: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

/**
 * Serves the deployed front end from `staticDir`:
 * `host/` at `/`, `remotes/` at `/remotes/`, the operator console `ops/` at `/ops/`, and `remotes.json` (read per request,
 * since deploys replace it by rename). Returns the SPA fallback for the 404 handler.
 */
export function registerStatic(
  app: FastifyInstance,
  staticDir: string,
  options: { isConsoleRequest?: (request: FastifyRequest) => boolean } & RemotesJsonOptions = {},
): SpaFallback {
  const hostRoot = path.join(staticDir, 'host');
  const remotesRoot = path.join(staticDir, 'remotes');
  const registryFile = path.join(staticDir, 'remotes.json');
  const opsRoot = path.join(staticDir, 'ops');
  if (!existsSync(staticDir)) app.log.warn({ staticDir }, 'static folder does not exist (yet); serving the API only');

  app.register(fastifyStatic, {
    root: hostRoot,
    prefix: '/',
    wildcard: true,
    preCompressed: true,
    cacheControl: false,
    setHeaders: (reply, filePath) => {
      reply.header('cache-control', hostCacheControl(filePath));
    },
  });

  app.register(fastifyStatic, {
    root: remotesRoot,
    prefix: '/remotes/',
    wildcard: true,
    index: false,
    preCompressed: true,
    cacheControl: false,
    decorateReply: false,
    onFile: insideRoot(remotesRoot),
    setHeaders: (reply, filePath) => {
      // Remote bundles may be fetched by a host on another origin (manifest via fetch, chunks via script).
      reply
        .header('cache-control', remoteCacheControl(filePath))
        .header('access-control-allow-origin', '*')
        .header('cross-origin-resource-policy', 'cross-origin');
    },
  });

  app.register(fastifyStatic, {
    root: opsRoot,
    prefix: '/ops/',
    wildcard: true,
    preCompressed: true,
    cacheControl: false,
    decorateReply: false,
    setHeaders: (reply, filePath) => {
      // Not for search engines, never framed (the global headers already refuse framing).
      reply.header('cache-control', hostCacheControl(filePath)).header('x-robots-tag', 'noindex, nofollow');
    },
  });

  // Per visitor when a remote has a canary (issue 35 item 3): remotes-json.ts.
  app.register(async (scope) => registerRemotesJson(scope, registryFile, options));

  return async (request, reply) => {
    if (!wantsSpaFallback(request)) return false;
    // The decoded path, as the console-surface hook judged it (review s6b, finding 9: `/%6fps/x` passed
    // the hook as a console page, then got the customer app's page here). The console listener never
    // serves the customer app's page, whatever the path says.
    const pathname = decodedPath(request);
    const onConsole = options.isConsoleRequest?.(request) === true;
    if (onConsole && !opsPages.test(pathname)) return false;
    const root = onConsole || opsPages.test(pathname) ? opsRoot : hostRoot;
    const page = root === hostRoot ? await hostPage(root, request, pathname) : 'index.html';
    const index = await stat(path.join(root, page)).catch(() => null);
    if (!index?.isFile()) return false;
    // The host's page for a path depends on the browser's language and device (a pre-rendered landing page).
    if (root === hostRoot) reply.header('vary', 'Accept-Language, Cookie, User-Agent');
    await reply.code(200).header('cache-control', NO_CACHE).sendFile(page, root);
    return true;
  };
}

/** The landing screens' pre-rendered page when one fits the browser (prerendered-page.ts), else index.html. */
async function hostPage(root: string, request: FastifyRequest, pathname: string): Promise<string> {
  const page = prerenderedPage({
    pathname,
    userAgent: request.headers['user-agent'],
    languageCookie: request.cookies?.[LANGUAGE_COOKIE],
    acceptLanguage: request.headers['accept-language'],
  });
  if (!page) return 'index.html';
  const found = await stat(path.join(root, page)).catch(() => null);
  return found?.isFile() ? page : 'index.html';
}
