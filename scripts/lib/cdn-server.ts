/**
 * A team's CDN, locally (issue 35 item 2): a static server on another loopback origin serving
 * `<DEPLOY_DIR>/cdn/<remote>/<version>/`, as a CDN would: CORS for the app's origin only, immutable
 * caching (a version folder never changes) and `Cross-Origin-Resource-Policy: cross-origin`. Started by
 * `npm start` when REMOTE_CDN_DEMO=1 (and so by the e2e suite). Files only: no listing, no `..`.
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { DEPLOY_DIR } from './paths.ts';

export const CDN_DIR = path.join(DEPLOY_DIR, 'cdn');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

/** Where the demo CDN listens: another loopback address on the app's port (another origin, no new port). */
export function cdnOrigin(env: NodeJS.ProcessEnv = process.env): string {
  if (env.REMOTE_CDN_URL) return new URL(env.REMOTE_CDN_URL).origin;
  return `http://127.0.0.2:${env.PORT ?? 8080}`;
}

/**
 * The file a request path names under `root`, or null: a malformed escape, a path out of `root`, or
 * one whose real path (links resolved) leaves it (review s8, finding 1: a linked secret was served).
 */
async function servedFile(root: string, rawPathname: string): Promise<string | null> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(rawPathname);
  } catch {
    return null;
  }
  const file = path.join(root, pathname);
  if (!file.startsWith(`${root}${path.sep}`)) return null;
  const [realRoot, realFile] = await Promise.all([realpath(root), realpath(file)]).catch(() => [null, null]);
  return realRoot && realFile?.startsWith(`${realRoot}${path.sep}`) ? realFile : null;
}

export function startCdnServer(origin: string, appOrigin: string, root: string = CDN_DIR): Promise<Server> {
  const server = createServer(async (request, response) => {
    const file = await servedFile(root, new URL(request.url ?? '/', origin).pathname);
    const headers = {
      'access-control-allow-origin': appOrigin,
      vary: 'Origin',
      'cross-origin-resource-policy': 'cross-origin',
      'x-content-type-options': 'nosniff',
    };
    const found = file ? await stat(file).catch(() => null) : null;
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, headers).end();
    } else if (!file || !found?.isFile()) {
      response.writeHead(404, { ...headers, 'cache-control': 'no-store' }).end();
    } else {
      response.writeHead(200, {
        ...headers,
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-length': found.size,
        'cache-control': 'public, max-age=31536000, immutable',
      });
      if (request.method === 'HEAD') response.end();
      else createReadStream(file).pipe(response);
    }
  });
  const url = new URL(origin);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(Number(url.port), url.hostname, () => resolve(server));
  });
}
