import type { BrowserContext, Page } from '@playwright/test';

/**
 * Checks that text fits its box at narrow widths, run inside the page (page.evaluate).
 * Functions here are serialised into the browser: no imports, no closures.
 */

/** Placeholders wider than their field, measured with the field's own font (a canvas measures the text). */
export function overflowingPlaceholders(): string[] {
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d');
  if (!context) return ['no canvas'];
  const fields = [
    ...document.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[placeholder], textarea[placeholder]'),
  ];
  const problems: string[] = [];
  for (const field of fields) {
    if (field.offsetParent === null || !field.placeholder) continue;
    const style = getComputedStyle(field, '::placeholder');
    context.font = `${style.fontStyle} ${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const textWidth = context.measureText(field.placeholder).width;
    const box = getComputedStyle(field);
    const room = field.clientWidth - Number.parseFloat(box.paddingLeft) - Number.parseFloat(box.paddingRight);
    // A textarea wraps its placeholder; an input cuts it.
    if (field.tagName === 'INPUT' && textWidth > room + 1)
      problems.push(`"${field.placeholder}" ${Math.round(textWidth)} > ${Math.round(room)}`);
  }
  return problems;
}

/**
 * Text in a segment, tab or tab-bar item that is cut by its item or runs past its bar's edge. A bar that
 * scrolls sideways by design (antd's Tabs) may put items past its edge, but never cut one's own text.
 */
export function clippedBarText(): string[] {
  const BARS = [
    '[data-testid="trade-switch"]',
    '.adm-segmented',
    '.adm-tabs-header',
    '.adm-capsule-tabs-header',
    '.adm-tab-bar',
    '.adm-jumbo-tabs-header',
  ];
  const ITEMS = 'button, a, .adm-segmented-item, .adm-tabs-tab, .adm-capsule-tabs-tab, .adm-tab-bar-item';
  const problems: string[] = [];
  for (const bar of document.querySelectorAll<HTMLElement>(BARS.join(','))) {
    if (bar.offsetParent === null) continue;
    const barRect = bar.getBoundingClientRect();
    const scrolls =
      ['auto', 'scroll'].includes(getComputedStyle(bar).overflowX) || bar.querySelector('.adm-tabs-header-mask');
    for (const item of bar.querySelectorAll<HTMLElement>(ITEMS)) {
      const text = item.textContent?.trim();
      if (!text || item.offsetParent === null) continue;
      const rect = item.getBoundingClientRect();
      const range = document.createRange();
      range.selectNodeContents(item);
      const textRect = range.getBoundingClientRect();
      if (item.scrollWidth > item.clientWidth + 1 || textRect.left < rect.left - 1 || textRect.right > rect.right + 1)
        problems.push(`"${text}" cut (${Math.round(textRect.width)} in ${Math.round(rect.width)})`);
      else if (!scrolls && (rect.right > barRect.right + 1 || rect.left < barRect.left - 1))
        problems.push(`"${text}" past its bar's edge`);
    }
  }
  if (document.documentElement.scrollWidth > window.innerWidth + 1)
    problems.push(`page ${document.documentElement.scrollWidth} px wide in ${window.innerWidth}`);
  return problems;
}

/** The family the UI text renders in (the app ships Roboto): true once the web font is in use. */
export async function appFontLoaded(page: Page): Promise<boolean> {
  // The app's @font-face rules come with the app chunk, which the pre-rendered page fetches after its first
  // paint (issue 30). Before they are in, check() finds no face of that family and answers true whatever the
  // font: wait (up to 15 s) for the faces to exist, then for them to load or fail.
  await page.waitForFunction(
    () => [...document.fonts].some((face) => face.family.replaceAll('"', '') === 'Roboto Variable'),
    undefined,
    {
      timeout: 15_000,
    },
  );
  return page.evaluate(async () => {
    await document.fonts.ready;
    return document.fonts.check('16px "Roboto Variable"', 'Amount');
  });
}

/**
 * Renders every page as a browser without the app's web font would on a plain Debian machine:
 * the font files are refused and the stack is pinned to DejaVu Sans (wide Latin glyphs), with the
 * CJK font behind it for Chinese.
 */
export async function forceFallbackFont(context: BrowserContext): Promise<void> {
  await context.route(/\.woff2?(\?|$)/, (route) => route.abort());
  await context.addInitScript(() => {
    const style = document.createElement('style');
    style.textContent =
      "html:root, html:root:lang(zh-TW) { --app-font-family: 'DejaVu Sans', 'Noto Sans CJK SC', sans-serif !important;" +
      " --adm-font-family: 'DejaVu Sans', 'Noto Sans CJK SC', sans-serif !important; }";
    document.addEventListener('DOMContentLoaded', () => document.head.append(style), { once: true });
  });
}
