import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Install scripts are declared: package.json "allowScripts" names the packages whose install scripts
 * run, and .npmrc's strict-allow-scripts makes npm refuse an install that meets any other (npm 11's
 * default only prints a notice and runs it anyway).
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const npm = (args: string[], cwd: string) =>
  run('npm', [...args, '--offline', '--no-audit', '--no-fund'], { cwd, env: { ...process.env, CI: 'true' } }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );

let work: string;

/** A project like ours (our .npmrc) depending on a local package with a postinstall script. */
async function projectWith(allowScripts: Record<string, boolean>): Promise<string> {
  const dir = await mkdtemp(path.join(work, 'app-'));
  await copyFile(path.join(ROOT, '.npmrc'), path.join(dir, '.npmrc'));
  const dependencies = { 'has-install-script': `file:${path.join(work, 'has-install-script-1.0.0.tgz')}` };
  await writeFile(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'app', private: true, dependencies, allowScripts }),
  );
  return dir;
}

describe('install-script policy', () => {
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'cw-allow-scripts-'));
    const dep = path.join(work, 'dep');
    await mkdir(dep);
    const postinstall = `node -e "require('fs').writeFileSync('ran', '')"`;
    await writeFile(
      path.join(dep, 'package.json'),
      JSON.stringify({ name: 'has-install-script', version: '1.0.0', scripts: { postinstall } }),
    );
    await run('npm', ['pack', '--pack-destination', work], { cwd: dep });
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it('.npmrc turns an undeclared install script into a failed install', async () => {
    const npmrc = await readFile(path.join(ROOT, '.npmrc'), 'utf8');
    expect(npmrc).toMatch(/^strict-allow-scripts=true$/m);
  });

  it('a new package with an install script is refused until allowScripts names it', async () => {
    const refused = await projectWith({});
    const first = await npm(['install'], refused);
    expect(first.code).not.toBe(0);
    expect(first.out).toContain('ESTRICTALLOWSCRIPTS');
    expect(first.out).toContain('has-install-script@1.0.0');

    // A registry package is named by its name (as in our package.json); a local tarball by its resolved path.
    const allowed = await projectWith({ [`file:${path.join(work, 'has-install-script-1.0.0.tgz')}`]: true });
    const second = await npm(['install'], allowed);
    expect(second.code, second.out).toBe(0);
    const ran = await readFile(path.join(allowed, 'node_modules/has-install-script/ran'), 'utf8').then(() => true);
    expect(ran).toBe(true);
  }, 120_000);

  it('every installed package with an install script is declared (npm install prints nothing about them)', async () => {
    const listed = await npm(['install-scripts', 'ls'], ROOT);
    expect(listed.out).toContain('No packages with unreviewed install scripts');
    const pruned = await npm(['install-scripts', 'prune', '--dry-run'], ROOT);
    expect(pruned.out).toContain('No unused allowScripts entries');
  }, 60_000);
});
