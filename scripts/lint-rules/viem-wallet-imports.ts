import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The wallet-safety import rule dependency-cruiser cannot express: it sees that a file imports the
 * `viem` root, not which names, and the root exports the wallet-client builders too. Outside the web3
 * kit (shared-state/src/web3, where every transaction is checked by assertAllowed and the provider
 * guard), no front-end file may take a wallet-client API from `viem`: the named builders below, the
 * whole module as a namespace (`import * as viem`, `import('viem')`, `require('viem')`), or a
 * re-export of them. Checked by scripts/lint-rules/dependency-rules.test.ts on fixtures and on the
 * repository's own sources.
 */
export const WALLET_CLIENT_NAMES: ReadonlySet<string> = new Set([
  'createWalletClient',
  'walletActions',
  'custom',
  'createClient',
  'createTestClient',
  'testActions',
]);

export const FRONT_END_ROOTS = ['host/src', 'remotes', 'shared-ui/src', 'shared-state/src'] as const;
const WEB3_KIT = 'shared-state/src/web3/';
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Directories never scanned; a bound on the walk. */
const SKIPPED = new Set(['node_modules', 'dist', '.deploy', '.rspack-cache', 'coverage']);
const MAX_FILES = 20_000;

function isViemRoot(node: ts.Node | undefined): boolean {
  return node !== undefined && ts.isStringLiteral(node) && node.text === 'viem';
}

/** The forbidden uses of `viem` in one file's text: "name (line N)" for each. */
export function viemWalletImports(fileName: string, text: string): string[] {
  if (!text.includes('viem')) return [];
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const at = (node: ts.Node, what: string) =>
    found.push(`${what} (line ${source.getLineAndCharacterOfPosition(node.getStart()).line + 1})`);
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && isViemRoot(node.moduleSpecifier)) {
      const bindings = ts.isImportDeclaration(node) ? node.importClause?.namedBindings : node.exportClause;
      if (bindings === undefined) {
        if (ts.isExportDeclaration(node)) at(node, "export * from 'viem'");
      } else if (ts.isNamespaceImport(bindings) || ts.isNamespaceExport(bindings)) at(node, "* as … from 'viem'");
      else
        for (const element of bindings.elements) {
          const name = (element.propertyName ?? element.name).text;
          if (WALLET_CLIENT_NAMES.has(name)) at(element, name);
        }
    }
    if (ts.isCallExpression(node) && isViemRoot(node.arguments[0])) {
      const callee = node.expression;
      if (callee.kind === ts.SyntaxKind.ImportKeyword) at(node, "import('viem')");
      else if (ts.isIdentifier(callee) && callee.text === 'require') at(node, "require('viem')");
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(root: string, dir: string, out: string[]): void {
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    if (out.length >= MAX_FILES) throw new Error(`more than ${MAX_FILES} front-end files: raise the bound`);
    const relative = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIPPED.has(entry.name)) sourceFiles(root, relative, out);
    } else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(relative);
  }
}

/** Every forbidden viem use in the front end outside the web3 kit, as "file: name (line N)". */
export function viemWalletImportViolations(root: string): string[] {
  const files: string[] = [];
  for (const dir of FRONT_END_ROOTS) sourceFiles(root, dir, files);
  return files
    .filter((file) => !file.startsWith(WEB3_KIT))
    .flatMap((file) =>
      viemWalletImports(file, readFileSync(path.join(root, file), 'utf8')).map((hit) => `${file}: ${hit}`),
    )
    .sort();
}
