import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { NGINX } from './nginx.ts';

/**
 * nginx for `npm start -- --instances N` and the kill drill: Debian's package, installed with apt-get
 * when missing and running as root (as scripts/ensure-chromium.ts does for Chromium); otherwise the
 * error says what to install.
 */
export function ensureNginx(): void {
  if (existsSync(NGINX)) return;
  if (process.getuid?.() !== 0) {
    throw new Error(`${NGINX} is missing. Install it with: sudo apt-get install -y nginx-light (or set NGINX_PATH)`);
  }
  const apt = (args: string[]) =>
    spawnSync('apt-get', args, { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } })
      .status === 0;
  const install = () => apt(['install', '-y', '--no-install-recommends', 'nginx-light']);
  if (!install() && !(apt(['update']) && install())) throw new Error('apt-get could not install nginx-light');
  if (!existsSync(NGINX)) throw new Error(`nginx-light installed but ${NGINX} is still missing`);
}
