import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';

/**
 * Reports of remote loads and load failures (issue 35) to `POST /api/client-events`: what
 * `npm run canary -- status` shows and the server's canary watch judges a canary on. Only the remote,
 * its version, load or failure and the runtime's error code travel: nothing of the user. Reports are
 * batched (one request per REPORT_DELAY_MS, at most EVENTS_MAX events, the server's limits) and sent
 * with `keepalive`, so a report made just before the user leaves still arrives. Best effort: a report
 * that cannot be sent is dropped, never retried in a loop.
 */
export interface LoadEvent {
  remote: string;
  version: string;
  kind: 'load' | 'failure';
  code?: string;
}

const REPORT_DELAY_MS = 1_000;
const EVENTS_MAX = 20;
/** Events kept waiting at most (a page that fails in a loop must not grow memory). */
const QUEUE_MAX = 100;
const CODE = /RUNTIME-0\d\d/;

let queue: LoadEvent[] = [];
let timer: ReturnType<typeof setTimeout> | null = null;

/** The runtime's error code of a load failure (`RUNTIME-008`), INTEGRITY, CONTRACT or UNKNOWN. */
export function errorCodeOf(error: unknown): string {
  const message = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  if (/integrity/i.test(message)) return 'INTEGRITY';
  if (error instanceof Error && error.name === 'RemoteContractError') return 'CONTRACT';
  return CODE.exec(message)?.[0] ?? 'UNKNOWN';
}

export function reportLoad(event: LoadEvent): void {
  if (queue.length >= QUEUE_MAX) return;
  queue.push(event);
  timer ??= setTimeout(flushLoadReports, REPORT_DELAY_MS);
}

export function flushLoadReports(): void {
  if (timer) clearTimeout(timer);
  timer = null;
  while (queue.length > 0) {
    const events = queue.slice(0, EVENTS_MAX);
    queue = queue.slice(EVENTS_MAX);
    void fetch('/api/client-events', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ events }),
      keepalive: true,
      credentials: 'same-origin',
    }).catch(() => undefined);
  }
}

if (typeof window !== 'undefined') window.addEventListener('pagehide', flushLoadReports);

const remoteOf = (id: string) => id.split('/')[0] ?? id;

/**
 * The runtime plugin: `afterLoadRemote` runs once per loadRemote, after success or failure (then with
 * `error`); `errorLoadRemote` is reported only for the failures afterLoadRemote does not see (before
 * the request was resolved). `versionOf` gives the version the host registered for a remote.
 */
export function loadReportsPlugin(versionOf: (remote: string) => string | undefined): ModuleFederationRuntimePlugin {
  const report = (remote: string, error: unknown) => {
    const version = versionOf(remote);
    if (!version) return;
    reportLoad(
      error === undefined
        ? { remote, version, kind: 'load' }
        : { remote, version, kind: 'failure', code: errorCodeOf(error) },
    );
  };
  return {
    name: 'cw-load-reports',
    async afterLoadRemote({ id, remote, error, recovered }) {
      if (recovered) return;
      report(remote?.name ?? remoteOf(id), error);
    },
    async errorLoadRemote({ id, error, lifecycle, remote }) {
      if (lifecycle === 'beforeRequest') report(remote?.name ?? remoteOf(id), error ?? new Error('UNKNOWN'));
      return undefined;
    },
  };
}
