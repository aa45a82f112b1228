import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, NotFoundError } from '../errors/app-error.ts';

/**
 * The operator console's own origin (issue 38 item 5).
 *
 * The console used to be served at /ops/ on the customer app's origin, whose CSP allows every remote's
 * CDN origin in script-src: any XSS there, or a compromised remote, ran in the operator's browser with
 * the operator's cookie on the same origin as /api/ops. Now one app answers on two listeners:
 *
 * - the app listener (PORT: the customer app, remotes, /api) answers 404 for /ops and for /api/ops;
 * - the console listener (OPS_PORT, 127.0.0.1 by default; console-listener.ts) answers only the
 *   console's files (/ops/) and /api/ops, with a CSP of its own: script-src 'self', no remote origin,
 *   connect-src 'self', frame-ancestors 'none'.
 *
 * Which listener took a request is decided by the socket it came in on (a request tagged by the console
 * listener's handler), never by the Host header or the path, which a client chooses. Paths are judged
 * after routing (`/%61pi/ops/...` is `/api/ops/...` to the router: item 4's lesson).
 *
 * Cookies are per host, not per port: the console must be on another host name than the app (in
 * development the app on 127.0.0.1 and the console on localhost; in production ops.example.com), so its
 * operator cookie never rides along with the customer app's requests (console-listener.ts refuses a
 * console origin on the app's host).
 *
 * /api/ops also refuses a request whose Origin is not the console's (or, without Origin, whose
 * Sec-Fetch-Site is not same-origin, or whose Referer is another origin on a state change): a page on a
 * sibling subdomain (app.example.com is same-site with ops.example.com, so SameSite=Strict cookies go
 * along) cannot use the operator's cookie even for a GET.
 */

/** Requests the console listener took (its handler adds them; a WeakSet: nothing outlives a request). */
const consoleRequests = new WeakSet<IncomingMessage>();

/** Whether the console listener (not the app port) took this request. */
export function cameThroughConsoleListener(request: Pick<FastifyRequest, 'raw'>): boolean {
  return consoleRequests.has(request.raw);
}

/** The console listener's request handler: tags the request, then hands it to the app's router. */
export function consoleRequestHandler(app: FastifyInstance) {
  return (req: IncomingMessage, res: import('node:http').ServerResponse): void => {
    consoleRequests.add(req);
    app.routing(req, res);
  };
}

export interface ConsoleSurface {
  /** The console's origin as browsers send it (`https://ops.example.com`), normalised by `consoleOrigin`. */
  origin: string;
  /** Whether a request came through the console listener; default `cameThroughConsoleListener`. Tests give their own. */
  isConsoleRequest: (request: FastifyRequest) => boolean;
}

/** The development default: the console on `localhost` while the app is on 127.0.0.1 (another cookie host). */
export const DEFAULT_CONSOLE_PORT = 9466;
export const DEFAULT_CONSOLE_ORIGIN = `http://localhost:${DEFAULT_CONSOLE_PORT}`;

/** `scheme://host[:port]` as browsers write it in Origin (lower case, no default port), or null. */
export function consoleOrigin(text: string): string | null {
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    return url.origin;
  } catch {
    return null;
  }
}

const OPS_API = /^\/api\/ops(\/|$)/;
const CONSOLE_PAGES = /^\/ops(\/|$)/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The request's path, %-decoded as the router decodes it (`/%61pi/ops` is `/api/ops`: item 4's lesson). */
export function decodedPath(request: Pick<FastifyRequest, 'url'>): string {
  const raw = request.url.split('?')[0] ?? '';
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The paths a request is judged on: the route the router matched (`/api/ops/tickets/:id`) and the
 * decoded request path. Both, since a wildcard route hides the path (`/ops` is matched by the user
 * app's static `/*`, then falls back to a page) and a request no route takes has no template.
 */
export function judgedPaths(request: Pick<FastifyRequest, 'url'> & { routeOptions?: { url?: string | undefined } }) {
  const routed = request.routeOptions?.url;
  const decoded = decodedPath(request);
  return routed === undefined || routed === decoded ? [decoded] : [routed, decoded];
}

function header(request: Pick<FastifyRequest, 'headers'>, name: string): string | undefined {
  const value = request.headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text === undefined || text === '' ? undefined : text;
}

/**
 * Whether an /api/ops request comes from somewhere else than the console's own pages. Browsers send
 * Sec-Fetch-Site on every request and Origin on every cross-origin one and every same-origin state
 * change; script cannot set either. A request with neither (curl, server-to-server) carries no ambient
 * browser cookie and is judged by its Referer only on a state change.
 */
export function isForeignToConsole(request: Pick<FastifyRequest, 'method' | 'headers'>, origin: string): boolean {
  const safe = SAFE_METHODS.has(request.method);
  const site = header(request, 'sec-fetch-site');
  // 'none': typed in the address bar or a bookmark (a GET an attacker's page cannot cause).
  if (site !== undefined && site !== 'same-origin' && !(site === 'none' && safe)) return true;
  const sentOrigin = header(request, 'origin');
  if (sentOrigin !== undefined) return consoleOrigin(sentOrigin) !== origin;
  if (site === undefined && !safe) {
    const referer = header(request, 'referer');
    if (referer !== undefined) return consoleOrigin(referer) !== origin;
  }
  return false;
}

/**
 * The onRequest hook that keeps the two surfaces apart (registered by buildApp before any route runs):
 * the app listener never answers the console or its API; the console listener answers nothing else,
 * and its API only to the console's own origin.
 */
export function registerConsoleSurface(app: FastifyInstance, surface: ConsoleSurface): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const paths = judgedPaths(request);
    const opsApi = paths.some((p) => OPS_API.test(p));
    const consolePage = !opsApi && paths.some((p) => CONSOLE_PAGES.test(p));
    if (!surface.isConsoleRequest(request)) {
      if (opsApi || consolePage) throw new NotFoundError('The operator console is not served here');
      return;
    }
    if (opsApi) {
      if (isForeignToConsole(request, surface.origin)) {
        throw new AppError('CROSS_SITE_REQUEST', 'The operator API answers the operator console only');
      }
      return;
    }
    if (consolePage) return;
    if (decodedPath(request) === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.redirect('/ops/', 302);
    }
    throw new NotFoundError('Not found');
  });
}

/**
 * The console's Content-Security-Policy (helmet directives): its own files only. No remote origin
 * (the console loads no federated code), no inline script; inline styles stay refused too (its CSS
 * is a file). Pictures may be data:/blob: (a reply's picture preview).
 */
export const CONSOLE_CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'", 'data:', 'blob:'],
  fontSrc: ["'self'"],
  connectSrc: ["'self'"],
  workerSrc: ["'none'"],
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
};
