/**
 * The test command's stage for the servers the tests start themselves: Debian's nginx-light (the kill
 * drill, scripts/kill-drill.test.ts) and redis-server (the REDIS_URL stores' tests), installed with
 * apt-get when missing and running as root (scripts/lib/ensure-servers.ts).
 */
import { ensureNginx, ensureRedis, REDIS_SERVER } from './lib/ensure-servers.ts';
import { NGINX } from './lib/nginx.ts';

try {
  ensureNginx();
  ensureRedis();
  console.log(`[ensure-servers] found ${NGINX} and ${REDIS_SERVER}`);
} catch (err) {
  console.error(`[ensure-servers] ${(err as Error).message}`);
  process.exit(1);
}
