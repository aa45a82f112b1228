import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './markdown.ts';

describe('renderMarkdown', () => {
  it('renders the Markdown operators write', () => {
    expect(renderMarkdown('# Maintenance\n\n**Deposits** pause at 02:00 UTC.\n\n- BTC\n- ETH')).toBe(
      '<h1>Maintenance</h1>\n<p><strong>Deposits</strong> pause at 02:00 UTC.</p>\n<ul>\n<li>BTC</li>\n<li>ETH</li>\n</ul>',
    );
  });

  it('links open in a new tab without the opener; only http(s) and mailto', () => {
    expect(renderMarkdown('[help](https://example.com/help)')).toBe(
      '<p><a href="https://example.com/help" target="_blank" rel="noopener noreferrer nofollow">help</a></p>',
    );
    expect(renderMarkdown('[x](javascript:alert(1))')).not.toContain('javascript:');
    expect(renderMarkdown('[x](data:text/html,<script>alert(1)</script>)')).not.toMatch(/href="data:/);
  });

  it('never lets markup, scripts, handlers or images through', () => {
    const html = renderMarkdown(
      '<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n![t](https://tracker.example/p.png)\n\n<a href="#" onclick="x()">a</a>',
    );
    expect(html).not.toMatch(/<script|<img|<a /i); // handlers survive only as escaped text
    expect(html).toContain('&lt;script&gt;');
  });
});
