/**
 * The test command's stage for the kill drill (scripts/kill-drill.test.ts): Debian's nginx-light,
 * installed with apt-get when missing and running as root (scripts/lib/ensure-nginx.ts).
 */
import { ensureNginx } from './lib/ensure-nginx.ts';
import { NGINX } from './lib/nginx.ts';

try {
  ensureNginx();
  console.log(`[ensure-nginx] found ${NGINX}`);
} catch (err) {
  console.error(`[ensure-nginx] ${(err as Error).message}`);
  process.exit(1);
}
