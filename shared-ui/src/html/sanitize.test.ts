// @vitest-environment jsdom
// (happy-dom breaks DOMPurify: it drops <body> and returns the input half-sanitised.)
import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize.ts';

describe('sanitizeHtml', () => {
  it('keeps inline markup and drops scripts and handlers', async () => {
    const clean = await sanitizeHtml(
      '<b>bold</b><script>alert(1)</script><img src="x" onerror="alert(1)"><a href="javascript:alert(1)">x</a>',
    );
    expect(clean).toContain('<b>bold</b>');
    expect(clean).not.toContain('script');
    expect(clean).not.toContain('onerror');
    expect(clean).not.toContain('javascript:');
  });
});
