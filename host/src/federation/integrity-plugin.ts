import type { RegistryEntry } from '@cw/shared-state/contracts';
import type { ModuleFederationRuntimePlugin } from '@module-federation/runtime';

/**
 * Subresource integrity for remotes (issue 35 item 1). The registry gives, per live version, the
 * sha384 digests the deploy took of its manifest and remote entry as served. This plugin makes the
 * browser check them: the manifest is fetched with `integrity`, the entry script gets `integrity` and
 * `crossorigin="anonymous"` (a cross-origin script's integrity is only checked in CORS mode). Bytes
 * that differ (a byte changed on the CDN after deploy) never run: the load fails, the area shows its
 * retry state. URLs are compared absolute, so `/remotes/...` and `http://host/remotes/...` match.
 */
const expected = new Map<string, string>();

const absolute = (url: string) => new URL(url, globalThis.location?.href).href;

/** Records a registry entry's digests before its remote is registered (replacing an older version's). */
export function expectIntegrity(entry: RegistryEntry): void {
  if (entry.manifestIntegrity) expected.set(absolute(entry.manifest), entry.manifestIntegrity);
  if (entry.entry && entry.integrity) expected.set(absolute(entry.entry), entry.integrity);
}

export function integrityOf(url: string): string | undefined {
  return expected.get(absolute(url));
}

export function integrityPlugin(): ModuleFederationRuntimePlugin {
  return {
    name: 'cw-remote-integrity',
    createScript({ url, attrs }) {
      const integrity = integrityOf(url);
      if (!integrity) return undefined;
      const script = document.createElement('script');
      // Set before src: the browser reads both when the element starts its fetch.
      script.crossOrigin = 'anonymous';
      script.integrity = integrity;
      script.type = attrs?.type === 'module' ? 'module' : 'text/javascript';
      script.src = url;
      return script;
    },
    fetch(url, init) {
      const integrity = integrityOf(url);
      if (!integrity) return undefined;
      return fetch(url, { ...init, integrity, mode: 'cors', credentials: 'omit' });
    },
  };
}
