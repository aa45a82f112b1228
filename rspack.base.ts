/**
 * One Rspack config factory for the host and every remote. Each app's own
 * rspack.config.ts names only what differs: name, kind, exposes, port.
 *
 * Federation model (see docs/architecture.md):
 * - Remotes are built with the Module Federation 2 plugin and expose `./routes`.
 * - The host is a runtime-only federation host: it does not bundle the
 *   federation runtime on the landing path; it loads `@module-federation/runtime`
 *   when a remote route is first visited and provides its own already-loaded
 *   singletons through the share scope (host/src/federation/shared-modules.ts).
 */
import { Console } from 'node:console';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ModuleFederationPlugin } from '@module-federation/enhanced/rspack';
import {
  type Configuration,
  CopyRspackPlugin,
  DefinePlugin,
  HtmlRspackPlugin,
  type RuleSetRule,
  SubresourceIntegrityPlugin,
} from '@rspack/core';
import { hostSharedConfig, lockedVersions, ROOT_LOCKFILE, remoteSharedConfig } from './federation-shared.ts';

/** host: the user app's frame; remote: a federated part of it; console: the operator console at /ops (alone). */
export type AppKind = 'host' | 'remote' | 'console';

/** Dev-server ports; the host's dev registry points at the remotes' dev servers. */
export const DEV_PORTS = {
  host: 3000,
  wallet: 3001,
  convert: 3002,
  rewards: 3003,
  mail: 3004,
  settings: 3005,
  ops: 3006,
} as const;

export interface AppConfigOptions {
  /** Federation name: host, wallet, convert, rewards, mail, settings. */
  name: string;
  kind: AppKind;
  /** Absolute path of the app's package folder. */
  dir: string;
  /** Modules a remote exposes, e.g. { './routes': './src/routes.ts' }. */
  exposes?: Record<string, string>;
  /**
   * The lockfile whose versions the app's shared packages are built against: the root one (the host's)
   * unless a fixture says otherwise (scripts/fixtures/skew-remote builds against a skewed lockfile).
   */
  lockfile?: string;
}

const root = import.meta.dirname;
const rootPkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  version: string;
};

/**
 * Versions of the shared packages the host provides (the root lockfile's): what the deploy's skew
 * check holds a candidate remote against. The shared policy itself is in federation-shared.ts.
 */
export function sharedVersions(): Record<string, string> {
  return lockedVersions();
}

/**
 * Infrastructure log output without one known note: the Module Federation manifest plugin warns that
 * publicPath 'auto' makes chunks resolve through the host at run time, which is how remotes in
 * versioned folders are meant to work (see README, "Build output"). Every other message still shows.
 */
const EXPECTED_NOTES = [/Manifest will use absolute path resolution via its host at runtime/];
function infrastructureConsole(): Console {
  const base = new Console({ stdout: process.stderr, stderr: process.stderr });
  const expected = (args: unknown[]) => EXPECTED_NOTES.some((note) => note.test(args.map(String).join(' ')));
  return Object.assign(Object.create(base) as Console, {
    warn: (...args: unknown[]) => {
      if (!expected(args)) base.warn(...args);
    },
  });
}

/** In development the registry points at each remote's dev server. */
function devRegistry(_req: unknown, res: { setHeader(k: string, v: string): void; end(body: string): void }) {
  const remotes: Record<string, { version: string; manifest: string; routes: string[] }> = {};
  for (const [name, port] of Object.entries(DEV_PORTS)) {
    if (name === 'host' || name === 'ops') continue;
    const pkg = JSON.parse(readFileSync(path.join(root, 'remotes', name, 'package.json'), 'utf8')) as {
      federation: { routes: string[] };
    };
    remotes[name] = {
      version: 'dev',
      manifest: `http://127.0.0.1:${port}/mf-manifest.json`,
      routes: pkg.federation.routes,
    };
  }
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-cache');
  res.end(JSON.stringify({ remotes }));
}

function scriptRule(production: boolean): RuleSetRule {
  return {
    test: /\.[cm]?tsx?$/,
    exclude: /node_modules/,
    loader: 'builtin:swc-loader',
    type: 'javascript/auto',
    options: {
      jsc: {
        parser: { syntax: 'typescript', tsx: true },
        transform: { react: { runtime: 'automatic', development: !production, refresh: false } },
        target: 'es2022',
      },
    },
  };
}

export function createConfig(opts: AppConfigOptions, argv: { mode?: string } = {}): Configuration {
  const production = (argv.mode ?? process.env.NODE_ENV) === 'production';
  const isHost = opts.kind === 'host';
  const plugins: Configuration['plugins'] = [
    new DefinePlugin({
      __APP_NAME__: JSON.stringify(opts.name),
      __BUILD_ID__: JSON.stringify(process.env.BUILD_ID ?? rootPkg.version),
      __SHARED_CONFIG__: JSON.stringify(hostSharedConfig(opts.lockfile ?? ROOT_LOCKFILE)),
      'process.env.NODE_ENV': JSON.stringify(production ? 'production' : 'development'),
    }),
    new HtmlRspackPlugin({
      template: path.join(opts.dir, 'index.html'),
      minify: production,
      scriptLoading: 'module',
    }),
  ];
  // The host's public files (web app manifest, icons) are served from the root as they are.
  const publicDir = path.join(opts.dir, 'public');
  if (isHost && existsSync(publicDir)) plugins.push(new CopyRspackPlugin({ patterns: [{ from: publicDir }] }));
  if (opts.kind === 'remote') {
    plugins.push(
      new ModuleFederationPlugin({
        name: opts.name,
        filename: 'remoteEntry.js',
        exposes: opts.exposes ?? {},
        shared: remoteSharedConfig(opts.lockfile ?? ROOT_LOCKFILE),
        shareStrategy: 'loaded-first',
        manifest: true,
        dts: false,
      }),
    );
    // The remote's own chunks carry sha384 integrity, checked by its runtime when it loads them (issue 35).
    if (production) plugins.push(new SubresourceIntegrityPlugin({ hashFuncNames: ['sha384'] }));
  }

  return {
    mode: production ? 'production' : 'development',
    context: opts.dir,
    target: ['web', 'es2022'],
    infrastructureLogging: { console: infrastructureConsole() },
    entry: { main: './src/main.ts' },
    devtool: production ? 'source-map' : 'cheap-module-source-map',
    output: {
      path: path.join(opts.dir, 'dist'),
      // Remotes are served from a versioned folder; 'auto' resolves chunks relative to remoteEntry.
      // REMOTE_PUBLIC_PATH: the absolute folder of a version on a team's CDN (scripts/lib/deploy-cdn.ts).
      publicPath: isHost ? '/' : opts.kind === 'console' ? '/ops/' : (process.env.REMOTE_PUBLIC_PATH ?? 'auto'),
      // CORS mode for chunks: a cross-origin script's integrity is only checked then.
      ...(opts.kind === 'remote' ? { crossOriginLoading: 'anonymous' as const } : {}),
      filename: production ? '[name].[contenthash:10].js' : '[name].js',
      chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
      cssFilename: production ? '[name].[contenthash:8].css' : '[name].css',
      uniqueName: opts.name,
      clean: true,
    },
    resolve: {
      extensions: ['.tsx', '.ts', '.js', '.mjs', '.json'],
      // react-router's package exports always name its development build.
      alias: production
        ? { 'react-router$': path.join(root, 'node_modules/react-router/dist/production/index.mjs') }
        : {},
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
    },
    module: {
      rules: [
        scriptRule(production),
        { test: /\.css$/, type: 'css/auto' },
        { test: /\.(png|svg|jpg|webp)$/, type: 'asset' },
      ],
      // Since Rspack 2.0.7 CSS modules rename custom properties (`--x`) per module by default, which
      // silently broke overrides of antd-mobile's variables (`--adm-*`, `--padding`) in *.module.css.
      // Custom properties are a global theming channel here, so they keep their names.
      parser: { 'css/auto': { dashedIdents: false } },
    },
    experiments: { css: true },
    optimization: {
      minimize: production,
      // The host's landing chunk is held to a size budget (bench:web): short ids (chunks by size, modules in order) instead of
      // 4-digit hashed ones save ~0.5 KB gzip there. The price is that a host build renumbers its chunks,
      // so a host deploy re-downloads more of the host; remotes (deployed often) keep stable ids.
      ...(production && isHost ? { chunkIds: 'size' as const, moduleIds: 'natural' as const } : {}),
      // Keep the landing chunk small: vendor code splits by usage, not into one blob. The host's `app` chunk
      // (everything main.ts starts, preloaded by index.html) stays one file: a piece split off would be one
      // more round trip before the landing page is live.
      splitChunks: isHost ? { chunks: (chunk) => !chunk.canBeInitial() && chunk.name !== 'app' } : false,
    },
    performance: { hints: false },
    plugins,
    devServer: {
      host: '127.0.0.1',
      port: DEV_PORTS[opts.name as keyof typeof DEV_PORTS],
      historyApiFallback: true,
      hot: true,
      headers: { 'Access-Control-Allow-Origin': '*' },
      setupMiddlewares: isHost
        ? (middlewares) => {
            middlewares.unshift({ name: 'dev-registry', path: '/remotes.json', middleware: devRegistry });
            return middlewares;
          }
        : undefined,
      proxy:
        opts.kind === 'console'
          ? // The console's API is on the server's console listener (OPS_PORT), which answers only the
            // console's origin (issue 38 item 5): this dev server stands in for that origin.
            [
              {
                context: ['/api/ops'],
                target: `http://127.0.0.1:${process.env.OPS_PORT ?? 9466}`,
                headers: { origin: process.env.OPS_ORIGIN ?? `http://localhost:${process.env.OPS_PORT ?? 9466}` },
              },
            ]
          : [{ context: ['/api', '/dev'], target: `http://127.0.0.1:${process.env.API_PORT ?? 8080}` }],
    },
  };
}
