import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { NGINX } from './nginx.ts';

/** Debian's redis-server: the tests of REDIS_URL's stores start one on loopback (server/src/test/redis.ts). */
export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server';

/**
 * A server the tests need from Debian, installed with apt-get when missing and running as root (as
 * scripts/ensure-chromium.ts does for Chromium); otherwise the error says what to install. apt-get's
 * post-install scripts cannot start a service here (no init system), so nothing is left listening.
 */
function ensureDebianPackage(binary: string, pkg: string, envVar: string): void {
  if (existsSync(binary)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${binary} is missing. Install it with: sudo apt-get install -y ${pkg} (or set ${envVar})`);
  }
  const apt = (args: string[]) =>
    spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      .status === 0;
  const install = () => apt(['install', '-y', '--no-install-recommends', pkg]);
  if (!install() && !(apt(['update']) && install())) throw new Error(`apt-get could not install ${pkg}`);
  if (!existsSync(binary)) throw new Error(`${pkg} installed but ${binary} is still missing`);
}

/** nginx for `npm start -- --instances N` and the kill drill. */
export const ensureNginx = () => ensureDebianPackage(NGINX, 'nginx-light', 'NGINX_PATH');

/** redis-server for the tests of the Redis stores (REDIS_URL). */
export const ensureRedis = () => ensureDebianPackage(REDIS_SERVER, 'redis-server', 'REDIS_SERVER_PATH');
