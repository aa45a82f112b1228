/**
 * The pre-rendered landing pages: after the host's production build, its landing screens (/signIn, /login)
 * are rendered to HTML by the app's own components (host/src/prerender.tsx, bundled for Node with the
 * host's build settings) in the default language and the phone layout, and written as complete pages:
 * index.html with the screen inside #root, the landing CSS inlined (no render-blocking stylesheet request)
 * and the Latin UI font preloaded. The server serves one to a browser that will render exactly that
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

/** The stylesheet link the browser build put in index.html, and the landing CSS: its file and the app chunk's. */
async function landingCss(buildDir: string, html: string, app: AppChunk): Promise<{ link: string; css: string }> {
  const links = html.match(/<link[^>]*rel="?stylesheet"?[^>]*>/g) ?? [];
  if (links.length !== 1) throw new Error(`expected one stylesheet in index.html, found ${links.length}`);
  const link = links[0] as string;
  const href = /href="?([^"\s>]+)"?/.exec(link)?.[1];
  if (!href?.startsWith('/')) throw new Error(`unexpected stylesheet link: ${link}`);
  const files = [href.slice(1), ...(app.css ? [app.css] : [])];
  const css = (await Promise.all(files.map((file) => readFile(path.join(buildDir, file), 'utf8')))).join('\n');
  if (/<\/style/i.test(css)) throw new Error('the landing CSS cannot be inlined: it contains </style');
  return { link, css };
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

/** The woff2 file of the font face whose range starts at U+0000 (the Latin subset the landing text uses). */
export function latinFontUrl(css: string): string {
  for (const face of css.split('@font-face').slice(1)) {
    // `U+0000-00FF`, or `U+??` once minified.
    if (!/unicode-range:\s*U\+(0+-0*FF|\?\?)(?=[,;}\s]|$)/i.test(face)) continue;
    const url = /url\(["']?([^"')]+\.woff2)["']?\)/.exec(face)?.[1];
    if (url) return url;
  }
  throw new Error('no Latin woff2 font face in the landing CSS');
}

/** index.html with the screen's markup in #root, the CSS inlined and the Latin font preloaded. */
export function landingPage(
  index: string,
  stylesheet: { link: string; css: string },
  screen: { path: string; markup: string; attribute: string },
): string {
  if (/<script/i.test(screen.markup))
    throw new Error(`pre-rendered ${screen.path} holds a script (the CSP refuses it)`);
  const root = '<div id="root"></div>';
  if (!index.includes(root)) throw new Error('index.html has no empty <div id="root"></div>');
  const font = latinFontUrl(stylesheet.css);
  const head = `<link rel="preload" href="${font}" as="font" type="font/woff2" crossorigin><style>${stylesheet.css}</style>`;
  return index
    .replace(stylesheet.link, () => head)
    .replace(root, () => `<div id="root" ${screen.attribute}="${screen.path}">${screen.markup}</div>`);
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
    const index = withAppPreload(await readFile(path.join(buildDir, 'index.html'), 'utf8'), app);
    await writeFile(path.join(buildDir, 'index.html'), index);
    const stylesheet = await landingCss(buildDir, index, app);
    const written: string[] = [];
    await mkdir(path.join(buildDir, PRERENDERED_DIR, LANGUAGE), { recursive: true });
    for (const screenPath of module.PRERENDERED_PATHS) {
      const markup = await module.renderScreen(screenPath);
      const file = path.join(PRERENDERED_DIR, LANGUAGE, `${screenPath.slice(1)}.html`);
      const page = landingPage(index, stylesheet, {
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
