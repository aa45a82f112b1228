import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { groupWorkspaces } from './typecheck-groups.ts';

const root = mkdtempSync(path.join(tmpdir(), 'typecheck-groups-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function workspace(dir: string, options: object, source: string): void {
  mkdirSync(path.join(root, dir, 'src'), { recursive: true });
  writeFileSync(path.join(root, dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: options, include: ['src'] }));
  writeFileSync(path.join(root, dir, 'src', 'index.ts'), source);
}

describe('typecheck groups', () => {
  it('joins workspaces with equal options only; one that declares globals, and the root, stay alone', () => {
    workspace('a', { strict: true, types: [] }, 'export const a = 1;\n');
    workspace('b', { types: [], strict: true }, 'export const b = 2;\n');
    workspace('c', { strict: true, types: ['node'] }, 'export const c = 3;\n');
    workspace('d', { strict: true, types: [] }, 'declare global {\n  interface Window { x?: number }\n}\nexport {};\n');
    workspace('.', { strict: true, types: [] }, 'export const root = 0;\n');
    const units = groupWorkspaces(root, ['a', 'c', 'b', 'd', '.']);
    expect(units.map((u) => u.dirs)).toEqual([['a', 'b'], ['c'], ['d'], ['.']]);
    expect(units[0]?.files?.map((f) => path.relative(root, f)).sort()).toEqual(['a/src/index.ts', 'b/src/index.ts']);
    expect(units[1]?.files).toBeUndefined();
  });
});
