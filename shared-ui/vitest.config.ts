import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'shared-ui',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['../scripts/test-setup/zh-cn-browser.ts', './src/test-setup.ts'],
    restoreMocks: true,
  },
});
