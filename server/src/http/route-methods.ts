import type { FastifyInstance } from 'fastify';

interface KnownRoute {
  pattern: RegExp;
  methods: readonly string[];
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `/api/wallet/deposits/:id` -> a pattern that any one path segment fills. */
function patternOf(url: string): RegExp {
  const segments = url.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : escapeRegExp(segment)));
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * Records the method of every /api route as it is registered (must run before the routes), and
 * answers which methods a concrete path has: a 405 names them in `Allow` instead of a bare 404.
 */
export function trackApiRouteMethods(app: FastifyInstance): (path: string) => string[] {
  const routes: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) return;
    routes.push({ pattern: patternOf(route.url), methods: [route.method].flat() });
  });
  return (path) => {
    const methods = new Set(routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods));
    return [...methods].sort();
  };
}
