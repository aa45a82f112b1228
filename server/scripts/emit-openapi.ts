/**
 * Writes shared-state/src/api/openapi.json and schema.d.ts from the server's
 * route schemas. No database, no listening. Run: `npm run gen:api -w server`.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { apiDir, generateApiArtifacts, openApiJsonFile, schemaDtsFile } from './api-artifacts.ts';

const { json, dts } = await generateApiArtifacts();
await mkdir(apiDir, { recursive: true });
await writeFile(openApiJsonFile, json);
await writeFile(schemaDtsFile, dts);
for (const file of [openApiJsonFile, schemaDtsFile]) console.log(`wrote ${path.relative(process.cwd(), file)}`);
