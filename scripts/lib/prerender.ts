/**
 * The pre-rendered landing pages: after the host's production build, its landing screens (/signIn, /login)
 * are rendered to HTML by the app's own components (host/src/prerender.tsx, bundled for Node with the
 * host's build settings) in the default language and the phone layout, and written as complete pages:
 * index.html with the screen inside #root and the landing CSS inlined (no render-blocking stylesheet request,
 * no font, no preload: the HTML is all that is fetched before the first paint). The server serves one to a browser that will render exactly that
 * (server/src/http/prerendered-page.ts); host/src/boot.ts hydrates it. The form paints from the HTML, before the
 * JavaScript has arrived (issue 30: LCP <= 1.2 s under Lighthouse's mobile throttling).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { type Configuration, CopyRspackPlugin, HtmlRspackPlugin, optimize, rspack } from '@rspack/core';
import { createConfig } from '../../rspack.base.ts';
import { ROOT } from './paths.ts';

const HOST_DIR = path.join(ROOT, 'host');
/** The folder under the host's build, as the server looks for it (server/src/http/prerendered-page.ts). */
const PRERENDERED_DIR = 'prerendered';
const LANGUAGE = 'zh-CN';

interface PrerenderModule {
  renderScreen(path: string): Promise<string>;
  PRERENDERED_ATTRIBUTE: string;
  PRERENDERED_PATHS: readonly string[];
}

/** The host's production config, turned into one CommonJS file for Node that exports renderScreen. */
function nodeConfig(outDir: string): Configuration {
  const base = createConfig({ name: 'host', kind: 'host', dir: HOST_DIR }, { mode: 'production' });
  const [scripts] = base.module?.rules ?? [];
  return {
    ...base,
    target: 'node',
    entry: { prerender: './src/prerender.tsx' },
    devtool: false,
    output: { path: outDir, filename: '[name].cjs', library: { type: 'commonjs2' }, publicPath: '/', clean: true },
    module: {
      rules: [
        scripts,
        // Styles reach the page from the browser build's CSS (inlined below); here they are only text.
        { test: /\.css$/, type: 'asset/source' },
        { test: /\.(png|svg|jpg|webp)$/, type: 'asset/inline' },
      ],
    },
    experiments: { css: false },
    optimization: { minimize: false, splitChunks: false },
    plugins: [
      ...(base.plugins ?? []).filter((p) => !(p instanceof HtmlRspackPlugin) && !(p instanceof CopyRspackPlugin)),
      // Lazy screens and translations in the one file: nothing to load from disk while rendering.
      new optimize.LimitChunkCountPlugin({ maxChunks: 1 }),
    ],
    devServer: undefined,
  };
}

async function compile(config: Configuration): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    rspack(config).run((error, stats) => {
      if (error) reject(error);
      else if (stats?.hasErrors()) reject(new Error(stats.toString({ all: false, errors: true })));
      else resolve();
    });
  });
}

/** Bundles host/src/prerender.tsx into `bundleDir` and loads it. */
export async function buildRenderer(bundleDir: string): Promise<PrerenderModule> {
  await compile(nodeConfig(bundleDir));
  return createRequire(import.meta.url)(path.join(bundleDir, 'prerender.cjs')) as PrerenderModule;
}

/**
 * The landing CSS, and the stylesheet link the browser build put in index.html (if any: the entry may have no
 * CSS of its own): the entry's CSS and the app chunk's, without their @font-face rules. The page paints with
 * the system's fonts and asks for no font before its first paint; the faces arrive with the app chunk's CSS
 * (host/src/boot.ts), and the Latin glyphs swap in then.
 */
async function landingCss(buildDir: string, html: string, app: AppChunk): Promise<{ link?: string; css: string }> {
  const links = html.match(/<link[^>]*rel="?stylesheet"?[^>]*>/g) ?? [];
  if (links.length > 1) throw new Error(`expected at most one stylesheet in index.html, found ${links.length}`);
  const link = links[0];
  const href = link === undefined ? undefined : /href="?([^"\s>]+)"?/.exec(link)?.[1];
  if (link !== undefined && !href?.startsWith('/')) throw new Error(`unexpected stylesheet link: ${link}`);
  const files = [...(href ? [href.slice(1)] : []), ...(app.css ? [app.css] : [])];
  const css = withoutFontFaces(
    (await Promise.all(files.map((file) => readFile(path.join(buildDir, file), 'utf8')))).join('\n'),
  );
  if (/<\/style/i.test(css)) throw new Error('the landing CSS cannot be inlined: it contains </style');
  return link === undefined ? { css } : { link, css };
}

/** CSS without its @font-face rules (they hold no nested braces) and without source-map comments. */
export function withoutFontFaces(css: string): string {
  return css
    .replace(/@font-face\s*\{[^}]*\}/g, '')
    .replace(/\/\*# sourceMappingURL=[^*]*\*\//g, '')
    .trim();
}

interface AppChunk {
  script: string;
  css: string | undefined;
}

/** The `app` chunk main.ts starts (host/src/main.ts): its script and its CSS, by their hashed names. */
async function appChunk(buildDir: string): Promise<AppChunk> {
  const files = await readdir(buildDir);
  const scripts = files.filter((f) => /^app\.[0-9a-f]+\.js$/.test(f));
  if (scripts.length !== 1) throw new Error(`expected one app chunk script, found ${scripts.length}`);
  return { script: scripts[0] as string, css: files.find((f) => /^app\.[0-9a-f]+\.css$/.test(f)) };
}

/** index.html with the app chunk preloaded beside the entry (main.ts imports it at once or after the first paint). */
export function withAppPreload(index: string, app: AppChunk): string {
  const head = '</head>';
  if (!index.includes(head)) throw new Error('index.html has no </head>');
  return index.replace(head, () => `<link rel="preload" href="/${app.script}" as="script">${head}`);
}

/**
 * index.html with the screen's markup in #root and the CSS inlined; `index` is the build's page without the
 * app chunk's preload: nothing but this HTML is fetched before the first paint (main.ts starts the app after it).
 */
export function landingPage(
  index: string,
  stylesheet: { link?: string | undefined; css: string },
  screen: { path: string; markup: string; attribute: string },
): string {
  if (/<script/i.test(screen.markup))
    throw new Error(`pre-rendered ${screen.path} holds a script (the CSP refuses it)`);
  const root = '<div id="root"></div>';
  if (!index.includes(root)) throw new Error('index.html has no empty <div id="root"></div>');
  const style = `<style>${stylesheet.css}</style>`;
  const styled = stylesheet.link
    ? index.replace(stylesheet.link, () => style)
    : index.replace('</head>', () => `${style}</head>`);
  if (!styled.includes(style)) throw new Error('index.html has no </head> for the landing CSS');
  return styled.replace(root, () => `<div id="root" ${screen.attribute}="${screen.path}">${screen.markup}</div>`);
}

/**
 * Writes `<buildDir>/prerendered/zh-CN/<screen>.html` for each landing path, and the app chunk's preload into
 * index.html; returns the pages written.
 */
export async function prerenderLanding(buildDir: string): Promise<string[]> {
  const bundleDir = await mkdtemp(path.join(os.tmpdir(), 'cw-prerender-'));
  try {
    const module = await buildRenderer(bundleDir);
    const app = await appChunk(buildDir);
    const built = await readFile(path.join(buildDir, 'index.html'), 'utf8');
    await writeFile(path.join(buildDir, 'index.html'), withAppPreload(built, app));
    const stylesheet = await landingCss(buildDir, built, app);
    const written: string[] = [];
    await mkdir(path.join(buildDir, PRERENDERED_DIR, LANGUAGE), { recursive: true });
    for (const screenPath of module.PRERENDERED_PATHS) {
      const markup = await module.renderScreen(screenPath);
      const file = path.join(PRERENDERED_DIR, LANGUAGE, `${screenPath.slice(1)}.html`);
      const page = landingPage(built, stylesheet, {
        path: screenPath,
        markup,
        attribute: module.PRERENDERED_ATTRIBUTE,
      });
      await writeFile(path.join(buildDir, file), page);
      written.push(file);
    }
    return written;
  } finally {
    await rm(bundleDir, { recursive: true, force: true });
  }
}
