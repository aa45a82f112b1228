import type { ComponentType } from 'react';

/**
 * The contract between the host and every remote: each remote exposes
 * `./routes` whose default export satisfies RemoteRoutesModule. The host
 * checks the shape at run time (isRemoteRoutesModule) so nothing crosses the
 * boundary as `any`.
 */
export interface AppRoute {
  /** Absolute path, e.g. '/coinTopup/send'. */
  path: string;
  /** Lazily loaded screen (React.lazy or lazyScreen). */
  Component: ComponentType;
  /** i18n key (in the remote's namespace) of the screen title. */
  titleKey?: string;
  /** Screens that need a logged-in user. */
  requiresLogin?: boolean;
}

export interface RemoteRoutesModule {
  /** The remote's i18n namespace, registered before its screens render. */
  namespace: string;
  routes: AppRoute[];
}

export function isRemoteRoutesModule(value: unknown): value is RemoteRoutesModule {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<RemoteRoutesModule>;
  return (
    typeof candidate.namespace === 'string' &&
    Array.isArray(candidate.routes) &&
    candidate.routes.every(
      (route) => typeof route?.path === 'string' && route.path.startsWith('/') && route.Component != null,
    )
  );
}

/** One entry of /remotes.json, written by scripts/deploy.ts. */
export interface RegistryEntry {
  version: string;
  /** `/remotes/<name>/<version>/mf-manifest.json` on this origin (isRegistry refuses anything else). */
  manifest: string;
  /** Path prefixes the remote owns, e.g. ['/coinTopup', '/addressBook']. */
  routes: string[];
  /** The manifest's digest (`sha384-...`), taken by the deploy from the served bytes (issue 35). */
  manifestIntegrity?: string;
  /** The remote entry script's URL (in the version's folder) and its digest. */
  entry?: string;
  integrity?: string;
}

export interface Registry {
  remotes: Record<string, RegistryEntry>;
}

const REMOTE_NAME = /^[a-z][a-z0-9-]{0,40}$/;
const REMOTE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+-]{0,80}$/;

/**
 * The only manifest a remote may be loaded from: its own version's folder on this origin. A registry
 * naming another URL (a poisoned remotes.json pointing at someone's server) is refused as a whole.
 */
export function isLocalManifest(name: string, entry: Pick<RegistryEntry, 'version' | 'manifest'>): boolean {
  return (
    REMOTE_NAME.test(name) &&
    REMOTE_VERSION.test(entry.version) &&
    entry.manifest === `/remotes/${name}/${entry.version}/mf-manifest.json`
  );
}

/**
 * A version on a team's CDN (issue 35 item 2): `<origin>/<name>/<version>/mf-manifest.json`. Only with
 * its digests (isSealed); which origins may serve script at all is the server's CSP (REMOTE_ORIGINS).
 */
function cdnFolder(name: string, entry: Pick<RegistryEntry, 'version' | 'manifest'>): string | null {
  if (!REMOTE_NAME.test(name) || !REMOTE_VERSION.test(entry.version)) return null;
  const match = /^(https?:\/\/[a-z0-9.-]+(?::\d{1,5})?)\/([^?#]*)$/i.exec(entry.manifest);
  const folder = `/${name}/${entry.version}/`;
  return match?.[2] === `${folder.slice(1)}mf-manifest.json` ? `${match[1]}${folder}` : null;
}

export function isRegistry(value: unknown): value is Registry {
  if (typeof value !== 'object' || value === null) return false;
  const remotes = (value as { remotes?: unknown }).remotes;
  if (typeof remotes !== 'object' || remotes === null) return false;
  return Object.entries(remotes).every(
    ([name, entry]: [string, Partial<RegistryEntry>]) =>
      typeof entry.version === 'string' &&
      typeof entry.manifest === 'string' &&
      Array.isArray(entry.routes) &&
      entry.routes.every((r) => typeof r === 'string' && r.startsWith('/')) &&
      isPlacedAndSealed(name, entry as RegistryEntry),
  );
}

const SRI = /^sha384-[A-Za-z0-9+/]{64}$/;
const ENTRY_FILE = /^[\w.-]+\.js$/;

/**
 * A local version: digests all three or none (a registry written before issue 35 has none: loaded as
 * before, without integrity). A CDN version: always sealed (fail closed). The entry lies in the
 * version's own folder, and the digests are sha384.
 */
function isPlacedAndSealed(name: string, entry: RegistryEntry): boolean {
  const { entry: url, integrity, manifestIntegrity } = entry;
  const local = isLocalManifest(name, entry);
  const folder = local ? `/remotes/${name}/${entry.version}/` : cdnFolder(name, entry);
  if (folder === null) return false;
  if (local && url === undefined && integrity === undefined && manifestIntegrity === undefined) return true;
  return (
    typeof url === 'string' &&
    url.startsWith(folder) &&
    ENTRY_FILE.test(url.slice(folder.length)) &&
    typeof integrity === 'string' &&
    SRI.test(integrity) &&
    typeof manifestIntegrity === 'string' &&
    SRI.test(manifestIntegrity)
  );
}

/**
 * A window event a remote fires when the user's notices changed (read, marked all read): the host's
 * mail tab badge fetches its unread count again. Plain DOM event: no shared store between the apps.
 */
export const NOTICES_CHANGED_EVENT = 'cw:notices-changed';
