import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Screens read and write server data through their feature's api hooks (`api/*-api.ts`, or a shared
 * hook such as `useCatalogue`), never by calling TanStack Query inline: one query key and one
 * staleTime per endpoint, one place to invalidate. A file under any `components/` folder of the host,
 * a remote or shared-ui may not import or call the data hooks named below. Checked by
 * scripts/lint-rules/query-hooks-in-components.test.ts on fixtures and on the repository's sources.
 */
export const DATA_HOOKS: ReadonlySet<string> = new Set([
  'useQuery',
  'useQueries',
  'useMutation',
  'useInfiniteQuery',
  'useSuspenseQuery',
  'useSuspenseQueries',
  'useSuspenseInfiniteQuery',
]);

const QUERY_PACKAGE = '@tanstack/react-query';
export const COMPONENT_ROOTS = ['host/src', 'remotes', 'shared-ui/src'] as const;
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Tests may drive a hook directly to set up a cache; they are not screens. */
const TEST_FILE = /\.(test|spec)\.[cm]?[jt]sx?$/;
const SKIPPED = new Set(['node_modules', 'dist', '.deploy', '.rspack-cache', 'coverage']);
/** A bound on the walk. */
const MAX_FILES = 20_000;

/** The forbidden data-hook uses in one file's text: "name (line N)" for each. */
export function queryHookUses(fileName: string, text: string): string[] {
  if (!text.includes(QUERY_PACKAGE) && ![...DATA_HOOKS].some((name) => text.includes(name))) return [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${what} (line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1})`);
  const visit = (node: ts.Node): void => {
    if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === QUERY_PACKAGE
    ) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) at(node, `* as ${bindings.name.text}`);
      else if (bindings)
        for (const element of bindings.elements) {
          const imported = (element.propertyName ?? element.name).text;
          if (DATA_HOOKS.has(imported) && element.propertyName) at(element, `${imported} as ${element.name.text}`);
        }
    }
    if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee)
        ? callee.text
        : ts.isPropertyAccessExpression(callee)
          ? callee.name.text
          : undefined;
      if (name !== undefined && DATA_HOOKS.has(name)) at(node, `${name}()`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(root: string, dir: string, out: string[]): void {
  let entries: Dirent[];
  try {
    entries = readdirSync(path.join(root, dir), { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    if (out.length >= MAX_FILES) throw new Error(`more than ${MAX_FILES} front-end files: raise the bound`);
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) sourceFiles(root, relative, out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(relative);
  }
}

/** Every file under a `components/` folder that uses a data hook directly, as "file: name (line N)". */
export function queryHookViolations(root: string): string[] {
  const files: string[] = [];
  for (const dir of COMPONENT_ROOTS) sourceFiles(root, dir, files);
  return files
    .filter((file) => file.split('/').includes('components') && !TEST_FILE.test(file))
    .flatMap((file) => queryHookUses(file, readFileSync(path.join(root, file), 'utf8')).map((hit) => `${file}: ${hit}`))
    .sort();
}
