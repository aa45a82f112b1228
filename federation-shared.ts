/**
 * The one `shared` policy of the federation (issue 35, "shared-version skew"): the host's runtime share
 * table (host/src/federation/shared-modules.ts, through __SHARED_CONFIG__) and every remote's
 * ModuleFederationPlugin (rspack.base.ts) take their singletons from here, so they cannot drift apart.
 *
 * - Every shared package is a singleton: one React, one router, one i18n, one store per page.
 * - `requiredVersion` is `^major.minor.0` of the version in the lockfile the app is built from (for the host and the
 *   remotes of this repository: the root package-lock.json, i.e. what is installed), not the range in
 *   a package.json, which says what is allowed rather than what was built against.
 * - `strictVersion: true`: a remote whose range the provided singleton does not meet fails to load
 *   (the area shows its retry state) instead of the runtime's console warning and a subtly broken
 *   screen. The deploy refuses such a remote before it goes live (scripts/lib/shared-skew.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Third-party singletons (installed under node_modules). */
export const SHARED_LIBRARIES = [
  'react',
  'react-dom',
  'react-router',
  'zustand',
  'i18next',
  'react-i18next',
  '@tanstack/react-query',
] as const;

/** The repository's own shared packages: workspace folder for each. */
export const SHARED_WORKSPACES = { '@cw/shared-ui': 'shared-ui', '@cw/shared-state': 'shared-state' } as const;

/** Every package shared as a singleton: the deploy's skew check looks for bundled copies of these. */
export const SINGLETON_PACKAGES: readonly string[] = [...SHARED_LIBRARIES, ...Object.keys(SHARED_WORKSPACES)];

export const ROOT_LOCKFILE = path.join(import.meta.dirname, 'package-lock.json');

export interface ShareConfig {
  singleton: true;
  strictVersion: true;
  requiredVersion: string;
}

/** What one shared package is shared with: the version built against and the policy. */
export interface SharedPackage {
  version: string;
  shareConfig: ShareConfig;
}

interface Lockfile {
  packages?: Record<string, { version?: string; link?: boolean; resolved?: string }>;
}

/** The version of each shared package as the lockfile installs it. Throws on a missing one. */
export function lockedVersions(lockfile = ROOT_LOCKFILE): Record<string, string> {
  const lock = JSON.parse(readFileSync(lockfile, 'utf8')) as Lockfile;
  const packages = lock.packages ?? {};
  const versions: Record<string, string> = {};
  const locations: [string, string][] = [
    ...SHARED_LIBRARIES.map((lib): [string, string] => [lib, `node_modules/${lib}`]),
    ...Object.entries(SHARED_WORKSPACES),
  ];
  for (const [pkg, location] of locations) {
    const version = packages[location]?.version;
    if (!version) throw new Error(`shared package ${pkg} has no version in ${lockfile} (packages["${location}"])`);
    versions[pkg] = version;
  }
  return versions;
}

/**
 * `^major.minor.0`: a patch-level difference either way is compatible (a remote built against 7.18.9
 * runs with a host on 7.18.5); a newer minor than the host provides is not (a remote built against
 * 7.19 may call what 7.18 lacks), nor another major.
 */
export function shareConfigOf(version: string): ShareConfig {
  const [major, minor] = version.split('.');
  if (!/^\d+$/.test(major ?? '') || !/^\d+$/.test(minor ?? '')) throw new Error(`not a semver version: ${version}`);
  return { singleton: true, strictVersion: true, requiredVersion: `^${major}.${minor}.0` };
}

/** The host's share table policy, per package: injected into the host as __SHARED_CONFIG__. */
export function hostSharedConfig(lockfile = ROOT_LOCKFILE): Record<string, SharedPackage> {
  const out: Record<string, SharedPackage> = {};
  for (const [pkg, version] of Object.entries(lockedVersions(lockfile))) {
    out[pkg] = { version, shareConfig: shareConfigOf(version) };
  }
  return out;
}

/**
 * Libraries whose subpaths are listed one by one instead of a trailing-slash key: resolving `zustand/`
 * hits its "./*" exports pattern, which Node 20 reports as deprecated (DEP0155) once per build.
 */
const EXPLICIT_SUBPATHS: Record<string, string[]> = {
  zustand: ['zustand/middleware', 'zustand/vanilla', 'zustand/shallow', 'zustand/traditional'],
};

/** A remote's ModuleFederationPlugin `shared`: every package and its subpaths, same policy as the host. */
export function remoteSharedConfig(lockfile = ROOT_LOCKFILE): Record<string, ShareConfig & { version: string }> {
  const shared: Record<string, ShareConfig & { version: string }> = {};
  for (const [lib, version] of Object.entries(lockedVersions(lockfile))) {
    shared[lib] = { ...shareConfigOf(version), version };
    // Subpaths (react/jsx-runtime, react-dom/client, @cw/shared-ui/toast, ...) must
    // be shared too, or a second React (or a second toast store) loads.
    for (const subpath of EXPLICIT_SUBPATHS[lib] ?? [`${lib}/`])
      shared[subpath] = { ...shareConfigOf(version), version };
  }
  return shared;
}
