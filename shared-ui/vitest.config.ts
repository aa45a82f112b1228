import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'shared-ui',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Lazy screens load their chunks on first use: seconds on a loaded two-core CI machine.
    testTimeout: 20_000,
    setupFiles: [
      '../scripts/test-setup/zh-cn-browser.ts',
      '../scripts/test-setup/shared-worker.ts',
      './src/test-setup.ts',
    ],
    // One module cache and DOM per worker instead of per file (about half the project's CPU time);
    // shared-worker.ts puts back what a file changes.
    isolate: false,
    restoreMocks: true,
  },
});
