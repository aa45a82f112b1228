import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'node',
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    // One embedded PostgreSQL cluster per run; each test file creates its own database.
    globalSetup: ['./src/test/global-setup.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // Files share a worker's module graph: importing app.ts (typebox, viem, kysely, fastify, every
    // module) cost each file 5 s on a loaded two-core machine. The files hold no module state that
    // another file could see: every file builds its own app, database and clock.
    isolate: false,
    // Most files take a few seconds; the margin is for a two-core CI machine under load, not for slow code.
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
