import sharp from 'sharp';
import { PIXEL_LIMIT, SVG_RENDER_MAX_PX } from './places.ts';

type Purifier = { sanitize(source: string, config: object): string };
let purifier: Promise<Purifier> | null = null;

/**
 * DOMPurify on a jsdom window, made once and only when the first SVG arrives (jsdom is heavy).
 * Besides its SVG profile (no script, no event handlers, no foreignObject, no javascript: links),
 * every reference leaving the document is dropped: the renderer must never fetch a URL or read a
 * local file named in someone's upload.
 */
async function svgPurifier(): Promise<Purifier> {
  purifier ??= (async () => {
    const [{ JSDOM }, { default: createDOMPurify }] = await Promise.all([import('jsdom'), import('dompurify')]);
    const { window } = new JSDOM('');
    const purify = createDOMPurify(window as unknown as Parameters<typeof createDOMPurify>[0]);
    purify.addHook('uponSanitizeAttribute', (_node, data) => {
      const name = data.attrName.toLowerCase();
      if ((name === 'href' || name === 'xlink:href' || name === 'src') && !data.attrValue.trim().startsWith('#'))
        data.keepAttr = false;
      if (/url\(\s*['"]?(?!#)/i.test(data.attrValue)) data.keepAttr = false;
    });
    return purify as unknown as Purifier;
  })();
  return purifier;
}

/** The SVG without anything active; what is stored and offered for download. */
export async function sanitizeSvg(source: string): Promise<string> {
  const purify = await svgPurifier();
  return purify.sanitize(source, {
    USE_PROFILES: { svg: true, svgFilters: true },
    FORBID_TAGS: ['style', 'foreignObject', 'image', 'use'],
  });
}

/** The sanitised SVG drawn to a PNG no larger than SVG_RENDER_MAX_PX on its longest side. */
export async function renderSvg(clean: string): Promise<{ png: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(Buffer.from(clean), { limitInputPixels: PIXEL_LIMIT })
    .resize({ width: SVG_RENDER_MAX_PX, height: SVG_RENDER_MAX_PX, fit: 'inside', withoutEnlargement: true })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { png: data, width: info.width, height: info.height };
}
