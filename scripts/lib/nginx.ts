import { type ChildProcess, spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * nginx in front of the cluster's instances (scripts/lib/cluster.ts): Debian's package, in the
 * foreground with its own prefix under DATA_DIR/nginx. Round robin with passive health checks (an
 * instance that refuses a connection or times out is skipped for FAIL_TIMEOUT_S and the request goes
 * to the next one; a POST is passed on only when it never reached the dead instance); the launcher's
 * active checks mark an instance `down` and reload nginx (SIGHUP: no connection dropped).
 */
export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const FAIL_TIMEOUT_S = 3;

export interface Nginx {
  /** Rewrites the upstream with `down` on these ports and reloads. */
  setDown(ports: ReadonlySet<number>): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The operator console (issue 38 item 5): its own nginx server on `port` (OPS_PORT), in front of each
 * instance's console listener (`portOf`: app port -> console port). In production it is its own host
 * name (ops.example.com) with its own certificate; see docs/production-layout.md.
 */
export interface NginxConsole {
  port: number;
  portOf: ReadonlyMap<number, number>;
}

export async function startNginx(
  dataDir: string,
  host: string,
  port: number,
  ports: readonly number[],
  opsConsole: NginxConsole | null = null,
): Promise<Nginx> {
  const dir = path.join(dataDir, 'nginx');
  await mkdir(path.join(dir, 'tmp'), { recursive: true });
  // Workers may run as another user (root starts them as nobody): they write request bodies here,
  // in files of their own (0600); they need not list the folder.
  await chmod(path.join(dir, 'tmp'), 0o733);
  const file = path.join(dir, 'nginx.conf');
  await writeFile(file, nginxConf(dir, host, port, ports, new Set(), opsConsole));
  const child = spawn(NGINX, ['-p', dir, '-c', file, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const deadline = Date.now() + 10_000;
  const base = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  for (;;) {
    const res = await fetch(`${base}/api/health`).catch(() => undefined);
    if (res?.ok) break;
    if (child.exitCode !== null || Date.now() > deadline) throw new Error('nginx did not start (see above)');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    async setDown(down) {
      await writeFile(file, nginxConf(dir, host, port, ports, down, opsConsole));
      child.kill('SIGHUP');
    },
    stop: () => stopProcess(child, exited, 5_000),
  };
}

export async function stopProcess(
  child: ChildProcess,
  exited: Promise<number | null>,
  timeoutMs = 20_000,
  signalled = false,
): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  if (!signalled) child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  await exited;
  clearTimeout(timer);
}

export function nginxConf(
  dir: string,
  host: string,
  port: number,
  ports: readonly number[],
  down: ReadonlySet<number>,
  opsConsole: NginxConsole | null = null,
): string {
  const tmp = path.join(dir, 'tmp');
  // nginx needs one server up; when every instance is down, keep them all listed (each answers 502).
  const allDown = ports.every((p) => down.has(p));
  const upstream = (target: (p: number) => number) =>
    ports
      .map(
        (p) =>
          `    server 127.0.0.1:${target(p)} max_fails=1 fail_timeout=${FAIL_TIMEOUT_S}s${down.has(p) && !allDown ? ' down' : ''};`,
      )
      .join('\n');
  const servers = upstream((p) => p);
  const listen = (p: number) => `${host.includes(':') ? `[${host}]` : host}:${p}`;
  const proxied = (name: string) => `      proxy_pass http://${name};
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      # Replaced, not appended: the instances trust this header (TRUST_PROXY) and must not see a client's own.
      proxy_set_header X-Forwarded-For $remote_addr;
      proxy_set_header X-Forwarded-Proto $scheme;
      # Dropped: the instances believe this header from nginx (request.host, the CSRF origin check), and a
      # client's own must not pass through; Host above already carries the address the client used.
      proxy_set_header X-Forwarded-Host "";
      proxy_set_header Upgrade $http_upgrade;
      proxy_set_header Connection $connection_upgrade;
      # Server-sent events (notifications, chat) flow as they are written.
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout;
      proxy_next_upstream_tries ${Math.max(2, ports.length)};
      proxy_connect_timeout 2s;`;
  // The console's own server: only the instances' console listeners behind it, never the app port.
  const consolePortOf = (p: number) => {
    const target = opsConsole?.portOf.get(p);
    if (target === undefined) throw new Error(`no console port for the instance on ${p}`);
    return target;
  };
  const consoleBlocks = opsConsole
    ? `
  upstream ops {
${upstream(consolePortOf)}
    keepalive 16;
  }
  server {
    listen ${listen(opsConsole.port)};
    location / {
${proxied('ops')}
    }
  }`
    : '';
  return `# Written by scripts/lib/nginx.ts at each start and health change.
worker_processes 1;
pid ${path.join(dir, 'nginx.pid')};
error_log ${path.join(dir, 'error.log')} warn;
events { worker_connections 2048; }
http {
  access_log off;
  client_body_temp_path ${tmp}/body;
  proxy_temp_path ${tmp}/proxy;
  fastcgi_temp_path ${tmp}/fastcgi;
  uwsgi_temp_path ${tmp}/uwsgi;
  scgi_temp_path ${tmp}/scgi;
  # The API refuses larger bodies itself (BODY_LIMIT, upload limits); this only bounds what nginx buffers.
  client_max_body_size 25m;
  server_tokens off;
  map $http_upgrade $connection_upgrade { default upgrade; '' ''; }
  upstream api {
${servers}
    keepalive 64;
  }
  server {
    listen ${listen(port)};
    location / {
${proxied('api')}
    }
  }${consoleBlocks}
}
`;
}
