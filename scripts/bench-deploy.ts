/**
 * npm run bench:deploy — the release figures of issue 35, one JSON line each ({"figure","value","unit"}):
 * - deploy_with_build_s: `npm run deploy -- mail` building here (build, skew check, copy, precompress,
 *   seal, go live): the first deploy, which makes the stable version to roll back to;
 * - build_s: the production Rspack build of mail alone (what CI does once per commit);
 * - deploy_s: `npm run deploy -- mail --from <that build>`: everything after the build (skew check,
 *   copy, precompress, seal, go live), the release step itself. deploy_s + build_s is a deploy that
 *   builds; both are printed so the build is never hidden;
 * - rollback_s: `npm run rollback -- mail`, command to registry switched;
 * - canary_switch_s: `npm run canary -- start mail <version> 50`, from the command to the first
 *   visitor in the canary's bucket whose `/remotes.json` names the new version (the server's real
 *   per-visitor handler, server/src/http/remotes-json.ts, on the same STATIC_DIR; the page then loads
 *   what that answer names). Twenty anonymous visitors poll; with 50 % one is in the bucket.
 * In a fresh temporary STATIC_DIR (removed after), so nothing running is touched.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import cookie from '@fastify/cookie';
import type {} from '@fastify/swagger';
import Fastify from 'fastify';
import { registerRemotesJson } from '../server/src/http/remotes-json.ts';
import { buildApp } from './lib/build.ts';
import { ROOT, remoteDir } from './lib/paths.ts';

const REMOTE = 'mail';
const VISITORS = 20;
const SWITCH_TIMEOUT_MS = 60_000;

function figure(name: string, value: number, unit: string) {
  console.log(JSON.stringify({ figure: name, value: Math.round(value * 100) / 100, unit }));
}

function script(staticDir: string, name: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
      cwd: ROOT,
      env: { ...process.env, STATIC_DIR: staticDir },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} ${args.join(' ')} exited ${code}`)),
    );
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await fn();
  return (performance.now() - start) / 1000;
}

const liveVersion = async (staticDir: string) =>
  (
    JSON.parse(await readFile(path.join(staticDir, 'remotes.json'), 'utf8')) as {
      remotes: Record<string, { version: string }>;
    }
  ).remotes[REMOTE]?.version as string;

const staticDir = await mkdtemp(path.join(os.tmpdir(), 'bench-deploy-'));
const app = Fastify();
await app.register(cookie);
registerRemotesJson(app, path.join(staticDir, 'remotes.json'), {});
/** The prebuilt mail of deploy_s (a temporary folder, removed after). */
let built: string | undefined;
try {
  const withBuild = await timed(() => script(staticDir, 'deploy', [REMOTE, '--build-id', 'bench-a']));
  figure('deploy_with_build_s', withBuild, 's');
  const first = await liveVersion(staticDir);
  const buildStart = performance.now();
  const prebuilt = await buildApp(remoteDir(REMOTE), { BUILD_ID: 'bench-b' });
  built = prebuilt;
  figure('build_s', (performance.now() - buildStart) / 1000, 's');
  figure('deploy_s', await timed(() => script(staticDir, 'deploy', [REMOTE, '--from', prebuilt])), 's');
  const second = await liveVersion(staticDir);
  if (first === second) throw new Error('the two builds got one version');
  figure('rollback_s', await timed(() => script(staticDir, 'rollback', [REMOTE])), 's');
  if ((await liveVersion(staticDir)) !== first) throw new Error('rollback did not switch back');

  const ids = Array.from({ length: VISITORS }, (_, i) => `bench-visitor-${String(i).padStart(8, '0')}`);
  const start = performance.now();
  let seenAt: number | null = null;
  const command = script(staticDir, 'canary', ['start', REMOTE, second, '50']);
  while (seenAt === null && performance.now() - start < SWITCH_TIMEOUT_MS) {
    const answers = await Promise.all(
      ids.map((id) => app.inject({ method: 'GET', url: '/remotes.json', cookies: { rbid: id } })),
    );
    if (answers.some((a) => a.statusCode === 200 && a.json().remotes?.[REMOTE]?.version === second)) {
      seenAt = performance.now();
    } else await new Promise((r) => setTimeout(r, 20));
  }
  await command;
  if (seenAt === null) throw new Error('no visitor in the bucket saw the canary');
  figure('canary_switch_s', (seenAt - start) / 1000, 's');
} finally {
  await app.close();
  await rm(staticDir, { recursive: true, force: true });
  if (built) await rm(built, { recursive: true, force: true });
}
