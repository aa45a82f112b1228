import { configure } from '@testing-library/dom';

/**
 * Unit tests run as a browser whose preferred language is zh-CN (the product's default), so a first
 * visit picks zh-CN as it does for most users; happy-dom itself reports en-US. Tests of the language
 * choice stub navigator themselves.
 */
Object.defineProperty(globalThis.navigator, 'languages', { value: ['zh-CN', 'zh'], configurable: true });
Object.defineProperty(globalThis.navigator, 'language', { value: 'zh-CN', configurable: true });

// findBy*/waitFor wait 1 s by default; a lazily loaded screen can take longer on a loaded CI machine.
// (A failing expectation still fails: it only waits longer before saying so.)
configure({ asyncUtilTimeout: 10_000 });
