import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { createStaticDir, type StaticDirFixture } from '../../test/static-dir.ts';
import { operatorCookie } from '../operators/test-helpers.ts';
import { SBOM_FILE_NAME } from './routes.ts';

const database = useTestDatabase();
const now = () => new Date('2030-01-02T03:04:05.000Z');
const sbom = `${JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.5', components: [{ name: 'fastify' }] }, null, 2)}\n`;
let staticDir: StaticDirFixture;
let app: App;
let opsCookie: string;

describe('GET /api/ops/sbom', () => {
  beforeAll(async () => {
    staticDir = await createStaticDir();
    app = buildTestApp({ db: database.db, now, staticDir: staticDir.dir });
    opsCookie = await operatorCookie(app, { db: database.db, now }, 'sbom_ops', ['finance']);
  });
  afterAll(async () => {
    await app.close();
    await staticDir.remove();
  });

  it('is 404 NOT_FOUND to an operator before a build wrote it', async () => {
    const res = await app.inject({ url: '/api/ops/sbom', headers: { cookie: opsCookie } });
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });

  it('gives a signed-in operator the document the build wrote, as CycloneDX JSON', async () => {
    await staticDir.write(SBOM_FILE_NAME, sbom);
    const res = await app.inject({ url: '/api/ops/sbom', headers: { cookie: opsCookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.cyclonedx\+json/);
    expect(res.json()).toEqual(JSON.parse(sbom));
  });

  it('is refused to anyone else: no session, a signed-in user, a made-up operator cookie', async () => {
    await staticDir.write(SBOM_FILE_NAME, sbom);
    const userId = await createUser(database.db);
    const anonymous = await app.inject({ url: '/api/ops/sbom' });
    const user = await app.inject({ url: '/api/ops/sbom', headers: { [TEST_USER_HEADER]: userId } });
    const forged = await app.inject({ url: '/api/ops/sbom', headers: { cookie: 'ops_sid=not-a-session' } });
    for (const res of [anonymous, user, forged]) {
      expect(res.statusCode).toBe(401);
      expect(res.body).not.toContain('CycloneDX');
    }
  });

  it('is not served as a static file', async () => {
    await staticDir.write(SBOM_FILE_NAME, sbom);
    const res = await app.inject({ url: `/${SBOM_FILE_NAME}` });
    expect(res.body).not.toContain('CycloneDX');
  });
});
