import type { Config } from 'dompurify';

/** Only harmless inline markup survives: no scripts, styles, forms or event handlers. */
const CONFIG: Config = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: ['style', 'form', 'input', 'textarea', 'select', 'button', 'iframe', 'object', 'embed'],
  FORBID_ATTR: ['style'],
};

let purifier: Promise<(html: string) => string> | undefined;

/**
 * Sanitise HTML with DOMPurify. DOMPurify loads on first use, so pages that
 * never show HTML (the landing page) do not pay for it.
 */
export function sanitizeHtml(html: string): Promise<string> {
  // Text without markup or entities needs no parser (and no DOMPurify download).
  if (!/[<>&]/.test(html)) return Promise.resolve(html);
  purifier ??= import('dompurify').then((module) => {
    const purify = module.default;
    return (dirty: string) => purify.sanitize(dirty, CONFIG) as string;
  });
  return purifier.then((sanitize) => sanitize(html));
}
