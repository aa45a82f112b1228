/**
 * npm run dev [-- <app> ...]: Rspack dev servers with hot reload, plus the API.
 * Without arguments every app runs; with names (host, wallet, ...) only those.
 * The host dev server serves a dev registry pointing at the remote dev servers.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { DEV_PORTS } from '../rspack.base.ts';
import { ROOT } from './lib/paths.ts';

const apps = Object.keys(DEV_PORTS) as (keyof typeof DEV_PORTS)[];
const wanted = process.argv.slice(2);
const selected = wanted.length > 0 ? apps.filter((a) => wanted.includes(a)) : apps;
const children: ChildProcess[] = [];

function start(name: string, command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const child = spawn(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  child.on('exit', (code) => console.log(`[dev] ${name} exited (${code})`));
  children.push(child);
}

start('api', process.execPath, ['--import', 'tsx', '--watch', 'server/src/main.ts'], ROOT, { PORT: '8080' });
for (const app of selected) {
  const dir =
    app === 'host'
      ? path.join(ROOT, 'host')
      : app === 'ops'
        ? path.join(ROOT, 'ops-console')
        : path.join(ROOT, 'remotes', app);
  start(app, path.join(ROOT, 'node_modules/.bin/rspack'), ['serve'], dir);
}
console.log(`[dev] host on http://127.0.0.1:${DEV_PORTS.host}, API on http://127.0.0.1:8080`);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(0);
  });
}
