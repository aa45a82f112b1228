import type { FastifyRequest } from 'fastify';
import { AppError } from '../errors/app-error.ts';

const stateChanging = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * True when a state-changing /api request comes from another site.
 * Browsers send `Sec-Fetch-Site`; older ones only `Origin`, compared with the
 * request host. Requests with neither (curl, server-to-server) are allowed:
 * they carry no ambient browser credentials.
 */
export function isCrossSiteRequest(request: Pick<FastifyRequest, 'method' | 'url' | 'headers' | 'host'>): boolean {
  if (!stateChanging.has(request.method)) return false;
  if (!(request.url === '/api' || request.url.startsWith('/api/') || request.url.startsWith('/api?'))) return false;
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
