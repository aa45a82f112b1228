import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';

export const openApiInfo = {
  title: 'CW Wallet API',
  version: '0.1.0',
  description: 'Every failure uses the ErrorResponse shape `{ code, message, details? }`.',
};

/**
 * OpenAPI 3.1 from the route schemas, at /api/docs (Swagger UI) and /api/docs/json.
 * Must be registered before the routes. Schemas added with `app.addSchema` and a
 * `$id` become named components (`#/components/schemas/<$id>`).
 */
export function registerOpenApi(app: FastifyInstance): void {
  app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: openApiInfo,
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
