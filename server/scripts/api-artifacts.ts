import path from 'node:path';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { buildApp } from '../src/app.ts';
import { repoRoot } from '../src/config.ts';
import { createOfflineDb } from '../src/db/offline-db.ts';

/** The generated files (the only server outputs outside server/). */
export const apiDir = path.join(repoRoot, 'shared-state', 'src', 'api');
export const openApiJsonFile = path.join(apiDir, 'openapi.json');
export const schemaDtsFile = path.join(apiDir, 'schema.d.ts');

/** The OpenAPI document of the app, built without a database and without listening. */
export async function buildOpenApiDocument(): Promise<OpenAPI3> {
  const app = buildApp({ db: createOfflineDb() });
  try {
    await app.ready();
    return app.swagger() as OpenAPI3;
  } finally {
    await app.close();
  }
}

/** Contents of openapi.json and schema.d.ts, deterministic for a given set of routes. */
export async function generateApiArtifacts(): Promise<{ json: string; dts: string }> {
  const document = await buildOpenApiDocument();
  const json = `${JSON.stringify(document, null, 2)}\n`;
  const ast = await openapiTS(JSON.parse(json) as OpenAPI3, { alphabetize: false });
  const header = COMMENT_HEADER.replace(
    'Do not make direct changes to the file.',
    'Do not make direct changes to the file: run `npm run gen:api -w server`.',
  );
  return { json, dts: `${header}${astToString(ast)}` };
}
