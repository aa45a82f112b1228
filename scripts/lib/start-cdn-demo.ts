import { cdnOrigin, startCdnServer } from './cdn-server.ts';

/**
 * REMOTE_CDN_DEMO=1 (`npm start`, the e2e suite): starts the demo CDN (cdn-server.ts) and pins its
 * origin in REMOTE_ORIGINS, which the server (started after, with this environment) reads for its CSP
 * and `npm run deploy -- <remote> --origin <it>` for its seal. Lives as long as this process.
 */
export async function startRemoteCdnDemo(env: NodeJS.ProcessEnv): Promise<void> {
  if (env.REMOTE_CDN_DEMO !== '1') return;
  const origin = cdnOrigin(env);
  const appOrigin = env.APP_ORIGIN ?? `http://${env.HOST?.trim() || '127.0.0.1'}:${env.PORT ?? 8080}`;
  const server = await startCdnServer(origin, appOrigin);
  server.unref();
  const pinned = new Set((env.REMOTE_ORIGINS ?? '').split(',').filter(Boolean));
  pinned.add(origin);
  env.REMOTE_ORIGINS = [...pinned].join(',');
  console.log(`[start] demo CDN for remotes at ${origin} (CORS for ${appOrigin})`);
}
