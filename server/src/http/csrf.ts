import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

type Routed = Pick<FastifyRequest, 'url'> & { routeOptions?: { url?: string | undefined } };

/**
 * Whether a request is for the API, decided on the path the router matched (`/api/me/settings`),
 * never on the raw URL: the router decodes %-escapes, so `/%61pi/me/settings` reaches the same route
 * while a test of the raw URL sees no `/api/` in it (issue 38). A request no route takes (404, 405) is
 * judged on its decoded path.
 */
export function isApiRequest(request: Routed): boolean {
  let path = request.routeOptions?.url;
  if (path === undefined) {
    const raw = request.url.split('?')[0] ?? '';
    try {
      path = decodeURIComponent(raw);
    } catch {
      path = raw;
    }
  }
  return path === '/api' || path.startsWith('/api/');
}

/**
 * True when a state-changing /api request comes from another site.
 * Browsers send `Sec-Fetch-Site`; older ones only `Origin`, compared with the
 * request host. Requests with neither (curl, server-to-server) are allowed:
 * they carry no ambient browser credentials.
 */
export function isCrossSiteRequest(request: Pick<FastifyRequest, 'method' | 'headers' | 'host'> & Routed): boolean {
  if (!stateChanging.has(request.method)) return false;
  if (!isApiRequest(request)) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (typeof fetchSite === 'string' && fetchSite !== '') {
    return fetchSite === 'cross-site' || fetchSite === 'same-site';
  }
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== '') {
    if (origin === 'null') return true;
    try {
      return new URL(origin).host !== request.host;
    } catch {
      return true;
    }
  }
  return false;
}

/** onRequest hook refusing cross-site state-changing API requests with CROSS_SITE_REQUEST (403). */
export async function csrfGuard(request: FastifyRequest): Promise<void> {
  if (isCrossSiteRequest(request)) {
    throw new AppError('CROSS_SITE_REQUEST', 'Cross-site request refused');
  }
}
