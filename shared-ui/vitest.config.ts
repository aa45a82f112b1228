import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'shared-ui',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    // Lazy screens load their chunks on first use: seconds on a loaded two-core CI machine.
    testTimeout: 20_000,
    setupFiles: ['../scripts/test-setup/zh-cn-browser.ts', './src/test-setup.ts'],
    restoreMocks: true,
  },
});
