import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { NotFoundError } from '../../errors/app-error.ts';
import { errorResponses } from '../../errors/schema.ts';
import type { operatorGuard } from '../operators/guard.ts';
import { operatorSecurity } from '../operators/roles.ts';

/**
 * The SBOM of the production dependencies (CycloneDX JSON) that `npm run build` writes beside the
 * deployed front end (scripts/lib/sbom.ts). Not under a served folder: operators read it here.
 */
export const SBOM_FILE_NAME = 'sbom.cdx.json';
/** Far above the ~0.3 MB the tree makes today; a bigger file is not ours. */
const SBOM_MAX_BYTES = 32 * 1024 * 1024;

/** CycloneDX JSON: the two fields a reader checks first, the rest passed through as written. */
const SbomDocument = Type.Object(
  { bomFormat: Type.Literal('CycloneDX'), specVersion: Type.String() },
  { additionalProperties: true },
);

async function readSbom(file: string | null): Promise<string> {
  const size =
    file === null
      ? null
      : await stat(file).then(
          (s) => s.size,
          () => null,
        );
  if (file === null || size === null) throw new NotFoundError('No SBOM: run npm run build');
  if (size > SBOM_MAX_BYTES) throw new Error(`SBOM file is ${size} bytes, over ${SBOM_MAX_BYTES}`);
  return readFile(file, 'utf8');
}

/** GET /api/ops/sbom. Operators only. */
export const sbomRoutes: FastifyPluginAsyncTypebox<{
  staticDir: string | null;
  requireOperator: ReturnType<typeof operatorGuard>;
}> = async (app, { staticDir, requireOperator }) => {
  const file = staticDir === null ? null : path.join(staticDir, SBOM_FILE_NAME);
  app.get(
    '/ops/sbom',
    {
      preValidation: requireOperator,
      schema: {
        security: operatorSecurity('finance', 'admin'),
        tags: ['ops'],
        summary: 'CycloneDX SBOM of the production dependencies of the deployed build',
        response: {
          200: SbomDocument,
          ...errorResponses(401, 403, 404),
        },
      },
    },
    async (_request, reply) => {
      const document = JSON.parse(await readSbom(file)) as Static<typeof SbomDocument>;
      return reply.type('application/vnd.cyclonedx+json; charset=utf-8').send(document);
    },
  );
};
