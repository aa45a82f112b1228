/**
 * Unit tests run as a browser whose preferred language is zh-CN (the product's default), so a first
 * visit picks zh-CN as it does for most users; happy-dom itself reports en-US. Tests of the language
 * choice stub navigator themselves.
 */
Object.defineProperty(globalThis.navigator, 'languages', { value: ['zh-CN', 'zh'], configurable: true });
Object.defineProperty(globalThis.navigator, 'language', { value: 'zh-CN', configurable: true });
