import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  define: {
    __APP_NAME__: JSON.stringify('convert'),
    __BUILD_ID__: JSON.stringify('test'),
    __SHARED_CONFIG__: JSON.stringify({}),
  },
  test: {
    name: 'convert',
    root: fileURLToPath(new URL('.', import.meta.url)),
    environment: 'happy-dom',
    setupFiles: ['../../scripts/test-setup/zh-cn-browser.ts', '../../scripts/test-setup/shared-worker.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // One module cache and DOM per worker instead of per file; shared-worker.ts puts back what a file changes.
    isolate: false,
    // Lazy screens load their chunks on first use: seconds on a loaded two-core CI machine.
    testTimeout: 20_000,
  },
});
