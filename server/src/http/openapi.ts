import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { COOKIE_NAME, SECURE_COOKIE_NAME } from '../modules/auth/sessions.ts';
import { OPERATOR_GUARD } from '../modules/operators/guard.ts';
import { declaredRoles, OPERATOR_SCHEME, SECURE_OPERATOR_SCHEME } from '../modules/operators/roles.ts';
import { OPERATOR_COOKIE, SECURE_OPERATOR_COOKIE } from '../modules/operators/service.ts';
import { requireUser } from './authenticate.ts';

export const openApiInfo = {
  title: 'CW Wallet API',
  version: '0.1.0',
  description: 'Every failure uses the ErrorResponse shape `{ code, message, details? }`.',
  license: { name: 'Proprietary', identifier: 'LicenseRef-CW-Proprietary' },
};

/**
 * The session cookie, under either of its names: `__Host-sid` over HTTPS, `sid` on plain-HTTP
 * loopback development; a request reads only the name of its kind (a plain `sid` over HTTPS may have
 * been planted by a sibling subdomain). The operator's: `__Host-ops_sid` when Secure, else `ops_sid`.
 */
const securitySchemes = {
  sessionCookie: { type: 'apiKey', in: 'cookie', name: COOKIE_NAME, description: 'Session (plain HTTP)' },
  secureSessionCookie: { type: 'apiKey', in: 'cookie', name: SECURE_COOKIE_NAME, description: 'Session (HTTPS)' },
  [OPERATOR_SCHEME]: {
    type: 'apiKey',
    in: 'cookie',
    name: OPERATOR_COOKIE,
    description:
      'Operator session (the console at /ops; never a user session), plain HTTP. The requirement lists the operator roles of which one is needed (support, compliance, finance, admin).',
  },
  [SECURE_OPERATOR_SCHEME]: {
    type: 'apiKey',
    in: 'cookie',
    name: SECURE_OPERATOR_COOKIE,
    description: 'Operator session over HTTPS',
  },
} as const;
const SIGNED_IN: Record<string, string[]>[] = [{ sessionCookie: [] }, { secureSessionCookie: [] }];

/**
 * A stable operationId from the method and path, so generated clients get names that change only
 * when the URL does: `GET /api/wallet/withdrawals/:id` -> `getWalletWithdrawalsById`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split(/[/-]/)
    .filter((part) => part !== '')
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part))
    .flatMap((part) => part.split('-'));
  const camel = words.map((word) => word.charAt(0).toUpperCase() + word.slice(1)).join('');
  return `${method.toLowerCase()}${camel}`;
}

function hooksOf(hooks: RouteOptions['preValidation']): unknown[] {
  if (hooks === undefined) return [];
  return Array.isArray(hooks) ? hooks : [hooks];
}

/**
 * Every documented route gets its operationId and its security: a route guarded by `requireUser`
 * needs the session cookie, every other one is public (`security: []`) except an operator route, which
 * declares its own (the operator cookie with its roles). Route-level values win.
 */
function describeOperation(route: RouteOptions): void {
  if (route.schema === undefined || route.schema.hide === true) return;
  const method = Array.isArray(route.method) ? route.method[0] : route.method;
  if (method === undefined) return;
  const hooks = hooksOf(route.preValidation);
  const signedIn = hooks.includes(requireUser);
  const operator = hooks.some((hook) => typeof hook === 'function' && OPERATOR_GUARD in hook);
  // An operator route must say which roles may call it (modules/operators/roles.ts): the guard reads
  // them from here, so a route without them would be closed to all; refuse to start instead.
  if (operator && declaredRoles(route.schema.security).length === 0)
    throw new Error(`${method} ${route.url}: an operator route must declare its roles (schema.security)`);
  route.schema = {
    operationId: operationIdOf(method, route.url),
    security: signedIn ? SIGNED_IN : [],
    ...route.schema,
  };
}

/**
 * OpenAPI 3.1 from the route schemas, at /api/docs (Swagger UI) and /api/docs/json.
 * Must be registered before the routes. Schemas added with `app.addSchema` and a
 * `$id` become named components (`#/components/schemas/<$id>`).
 */
export function registerOpenApi(app: FastifyInstance): void {
  app.addHook('onRoute', describeOperation);
  app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: openApiInfo,
      // Same origin as the app: the API is served beside the pages it answers.
      servers: [{ url: '/', description: 'The origin that serves the app' }],
      components: { securitySchemes },
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { validatorUrl: null, deepLinking: false },
  });
}
