import { cleanup } from '@testing-library/react';
import { afterAll, afterEach } from 'vitest';
import { resetToasts } from './toast/index.ts';

// Testing Library cleans up by itself only when test globals are enabled.
afterEach(() => cleanup());
// The toast queue is a module-level store, and test files share a worker's modules (isolate: false):
// a file's leftover notices must not reach the next file's expectations.
afterAll(() => resetToasts());
