import { defineConfig } from 'vitest/config';

// The API server, signer and keygen children the tests start read TypeScript through Node's own type
// stripping instead of tsx's loader hooks (server/src/lib/ts-child.ts): less CPU per child.
process.env.TS_CHILD_LOADER ??= 'strip';
// Those API servers build each response serializer when its route first answers, not all ~1,500 at start
// (server/src/http/serializers.ts; serializers.test.ts still builds every one).
process.env.SERIALIZER_MODE ??= 'on-first-use';

/**
 * `npm run test:unit`: every workspace's own vitest.config.ts, plus the
 * repository-level checks under scripts/ (i18n gate, lint-rule fixtures).
 */
export default defineConfig({
  test: {
    // Two test files at once: with vitest's default (cores - 1 = one worker on the two-core CI machine)
    // the unit stage kept a load of about 1.2, a core mostly waiting on PostgreSQL. Every server file has
    // its own database and free ports, so two files never share state.
    maxWorkers: 2,
    projects: [
      'shared-state',
      'shared-ui',
      'host',
      'remotes/*',
      'server',
      {
        test: {
          name: 'repo-checks',
          environment: 'node',
          include: ['scripts/**/*.test.ts'],
          testTimeout: 30_000,
          // The drills stop three API instances, nginx, a signer and a cluster in their afterAll.
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
