import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: {
    __APP_NAME__: JSON.stringify('rewards'),
    __BUILD_ID__: JSON.stringify('test'),
    __SHARED_CONFIG__: JSON.stringify({}),
  },
  test: {
    name: 'rewards',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'happy-dom',
    setupFiles: ['../../scripts/test-setup/zh-cn-browser.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // Lazy screens load their chunks on first use: seconds on a loaded two-core CI machine.
    testTimeout: 20_000,
  },
});
