import { describe, expect, it } from 'vitest';
import { landingPage, withoutFontFaces } from './prerender.ts';

const CSS = [
  '@font-face{font-family:Roboto Variable;src:url(/roboto-cyrillic-wght-normal.1a2b.woff2)format("woff2-variations");unicode-range:U+0301,U+0400-045F}',
  '@font-face{font-family:Roboto Variable;src:url(/roboto-latin-wght-normal.3c4d.woff2)format("woff2-variations");unicode-range:U+0000-00FF,U+0131}',
  '.account-form{display:grid}',
].join('');
const LINK = '<link href="/main.5e6f7a8b.css" rel="stylesheet">';
const INDEX = `<!doctype html><html lang="zh-CN"><head><title>CW Wallet</title>${LINK}<script defer src="/main.0123456789.js" type="module"></script></head><body><div id="root"></div></body></html>`;

describe('the pre-rendered landing page', () => {
  it('leaves the font faces out of the inlined CSS: no font is fetched before the first paint', () => {
    expect(withoutFontFaces(`${CSS}\n/*# sourceMappingURL=main.5e6f7a8b.css.map*/`)).toBe(
      '.account-form{display:grid}',
    );
  });

  it('puts the screen in #root, marked with its path, and the CSS in the page instead of a stylesheet request', () => {
    const page = landingPage(
      INDEX,
      { link: LINK, css: CSS },
      { path: '/signIn', markup: '<form class="account-form">$&</form>', attribute: 'data-prerendered' },
    );
    expect(page).toContain('<div id="root" data-prerendered="/signIn"><form class="account-form">$&</form></div>');
    expect(page).not.toContain(LINK);
    expect(page).toContain(`<style>${CSS}</style>`);
    // Nothing is preloaded: before the first paint the browser fetches this HTML only.
    expect(page).not.toContain('rel="preload"');
    // The app's script still loads, after the markup it hydrates.
    expect(page).toContain('<script defer src="/main.0123456789.js" type="module"></script>');
  });

  it('puts the CSS in the head when the build has no stylesheet of its own', () => {
    const page = landingPage(
      INDEX.replace(LINK, ''),
      { css: '.a{color:red}' },
      { path: '/login', markup: '<p>x</p>', attribute: 'data-prerendered' },
    );
    expect(page).toContain('<style>.a{color:red}</style></head>');
  });

  it('refuses markup holding a script (the CSP would block it) and an index.html without an empty root', () => {
    const stylesheet = { link: LINK, css: CSS };
    const screen = { path: '/login', markup: '<script>x()</script>', attribute: 'data-prerendered' };
    expect(() => landingPage(INDEX, stylesheet, screen)).toThrow(/holds a script/);
    expect(() =>
      landingPage(INDEX.replace('<div id="root"></div>', '<div id="app"></div>'), stylesheet, {
        ...screen,
        markup: '<p>x</p>',
      }),
    ).toThrow(/no empty/);
  });
});
