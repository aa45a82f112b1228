/**
 * The e2e specs that deploy a remote (remote-canary, remote-cdn, deploy-rollback) build nothing: each
 * deploys a copy of a build the e2e server already made at start (`npm run deploy -- <remote> --from
 * <copy>`), made a new version by changing bytes in it and re-sealing the chunk digests its runtime checks.
 * A build takes minutes on the shared CI machine; a copy takes well under a second.
 */
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { E2E_STATIC_DIR } from './e2e-env.ts';

const sriOf = (bytes: Uint8Array) => `sha384-${createHash('sha384').update(bytes).digest('base64')}`;

/** A private copy of the files of the live stable version of `remote` (without its precompressed siblings). */
export async function copyOfLive(remote: string): Promise<{ dir: string; version: string }> {
  const registry = JSON.parse(await readFile(path.join(E2E_STATIC_DIR, 'remotes.json'), 'utf8')) as {
    remotes: Record<string, { version: string; manifest: string }>;
  };
  const entry = registry.remotes[remote];
  if (!entry?.manifest.startsWith(`/remotes/${remote}/`)) throw new Error(`${remote} is not live from the e2e server`);
  const dir = await mkdtemp(path.join(os.tmpdir(), `e2e-${remote}-copy-`));
  await cp(path.join(E2E_STATIC_DIR, 'remotes', remote, entry.version), dir, {
    recursive: true,
    filter: (src) => !/\.(gz|br)$/.test(src),
  });
  return { dir, version: entry.version };
}

async function scriptFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true, recursive: true }))
    .filter((e) => e.isFile() && /\.(js|json)$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * Rewrites the files of a build whose text `edit` changes (it must change at least one), then puts
 * each changed file's new sha384 where the build named its old one (the runtime's chunk digests, from
 * Rspack's SubresourceIntegrityPlugin), until nothing changes: the copy loads with integrity like a build.
 */
export async function patchBuild(dir: string, edit: (text: string, file: string) => string): Promise<string[]> {
  const files = await scriptFiles(dir);
  const changed: { file: string; from: string; to: string }[] = [];
  for (const file of files) {
    const before = await readFile(file);
    const after = edit(before.toString('utf8'), path.relative(dir, file));
    if (after === before.toString('utf8')) continue;
    await writeFile(file, after);
    changed.push({ file, from: sriOf(before), to: sriOf(Buffer.from(after)) });
  }
  if (changed.length === 0) throw new Error(`nothing in ${dir} matched the patch`);
  const touched = new Set(changed.map((c) => path.relative(dir, c.file)));
  // Each pass replaces digests; a file whose digest was replaced has a new digest of its own.
  for (let pass = 0; changed.length > 0; pass++) {
    if (pass > 20) throw new Error('chunk digests did not settle');
    const { from, to } = changed.shift() as { from: string; to: string };
    for (const file of files) {
      const before = await readFile(file);
      const text = before.toString('utf8');
      if (!text.includes(from)) continue;
      const after = text.replaceAll(from, to);
      await writeFile(file, after);
      changed.push({ file, from: sriOf(before), to: sriOf(Buffer.from(after)) });
      touched.add(path.relative(dir, file));
    }
  }
  return [...touched];
}

/** The copy shows `label` where the remote shows its build id (the hub's hidden build-id line). */
export async function relabel(dir: string, from: string, label: string): Promise<void> {
  const pattern = `buildId:${JSON.stringify(from)}`;
  let found = 0;
  await patchBuild(dir, (text) => {
    if (!text.includes(pattern)) return text;
    found++;
    return text.replaceAll(pattern, `buildId:${JSON.stringify(label)}`);
  });
  if (found !== 1) throw new Error(`the build id ${from} was found in ${found} files, not one`);
}

/** The copy's exposed module throws as it loads: a canary that fails for everyone in its bucket. */
export async function throwOnLoad(dir: string, message: string): Promise<void> {
  await patchBuild(dir, (text, file) =>
    /__federation_expose_/.test(file) ? `throw new Error(${JSON.stringify(message)});\n${text}` : text,
  );
}
