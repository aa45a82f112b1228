import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryHookViolations } from './query-hooks-in-components.ts';

/** Each forbidden use once, next to the allowed ones (api hooks, non-component folders, tests). */
const FIXTURE: Record<string, string> = {
  'remotes/a/src/features/x/components/inline-query.tsx':
    "import { useQuery } from '@tanstack/react-query';\nexport const A = () => useQuery({ queryKey: ['a'] });",
  'remotes/a/src/features/x/components/mutation.tsx':
    "import { useMutation as m } from '@tanstack/react-query';\nexport const B = () => m({});",
  'host/src/features/y/components/infinite.tsx':
    "import * as rq from '@tanstack/react-query';\nexport const C = () => rq.useInfiniteQuery({});",
  'shared-ui/src/components/suspense.tsx':
    "import { useSuspenseQuery } from '@tanstack/react-query';\nexport const D = () => useSuspenseQuery({});",
  // Allowed: the feature's api hooks, the query client, a shared hook, a test beside a component.
  'remotes/a/src/features/x/api/x-api.ts':
    "import { useQuery } from '@tanstack/react-query';\nexport const useX = () => useQuery({ queryKey: ['x'] });",
  'remotes/a/src/features/x/components/uses-hook.tsx':
    "import { useQueryClient } from '@tanstack/react-query';\nimport { useX } from '../api/x-api.ts';\n" +
    'export const E = () => { useQueryClient(); return useX(); };',
  'remotes/a/src/features/x/components/uses-hook.test.tsx':
    "import { useQuery } from '@tanstack/react-query';\nuseQuery({ queryKey: ['t'] });",
  'shared-state/src/catalogue/catalogue.ts':
    "import { useQuery } from '@tanstack/react-query';\nexport const useCatalogue = () => useQuery({});",
};

let dir = '';

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'query-hooks-fixture-'));
  for (const [file, body] of Object.entries(FIXTURE)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), body);
  }
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('no inline TanStack Query in components/', () => {
  it('reports every direct data-hook use in a component file, and nothing else', () => {
    expect(queryHookViolations(dir)).toEqual([
      'host/src/features/y/components/infinite.tsx: * as rq (line 1)',
      'host/src/features/y/components/infinite.tsx: useInfiniteQuery() (line 2)',
      'remotes/a/src/features/x/components/inline-query.tsx: useQuery() (line 2)',
      'remotes/a/src/features/x/components/mutation.tsx: useMutation as m (line 1)',
      'shared-ui/src/components/suspense.tsx: useSuspenseQuery() (line 2)',
    ]);
  });

  it('holds for the repository itself', () => {
    expect(queryHookViolations(path.resolve(import.meta.dirname, '../..'))).toEqual([]);
  });
});
