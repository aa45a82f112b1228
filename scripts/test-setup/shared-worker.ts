import { readFileSync } from 'node:fs';
import { cleanup } from '@testing-library/react';
import { afterAll, expect, vi } from 'vitest';

/**
 * The frontend projects run with `isolate: false`: the test files of a worker share one module
 * cache and one DOM (a fresh module graph and happy-dom window per file cost most of their time).
 * This file runs before each test file and puts back, when the file ends, what a test may change:
 * - the rendered trees, fake timers, stubbed globals and env, storage and cookies;
 * - the UI language (zh-CN, the unit tests' browser language; see zh-cn-browser.ts).
 * A file that mocks modules (`vi.mock`) or prepares globals before its imports (`vi.hoisted`, e.g. a
 * fetch stub a client keeps, or state read once "per page load") gets a module graph of its own: the
 * modules are evaluated again for it (so its mocks and stubs apply even where an earlier file imported
 * the real module), and again after it (so no later file sees them). Module-level stores a test fills are reset by the
 * test itself (afterEach), as under isolation.
 */
const testPath = expect.getState().testPath;
const ownModules = testPath !== undefined && /\bvi\.(?:mock|doMock|hoisted)\(/.test(readFileSync(testPath, 'utf8'));
if (ownModules) vi.resetModules();

afterAll(async () => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  // The module the components used (a mocking file evaluated its own copy).
  const { changeLanguage, currentLanguage } = await import('@cw/shared-state/i18n');
  if (currentLanguage() !== 'zh-CN') await changeLanguage('zh-CN');
  globalThis.localStorage?.clear();
  globalThis.sessionStorage?.clear();
  if (typeof document !== 'undefined') {
    for (const cookie of document.cookie.split('; ')) {
      const name = cookie.split('=')[0];
      // biome-ignore lint/suspicious/noDocumentCookie: expiring the cookies a test set (happy-dom has no Cookie Store API).
      if (name) document.cookie = `${name}=; path=/; max-age=0`;
    }
  }
  if (ownModules) vi.resetModules();
});
