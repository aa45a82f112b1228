import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { findFiles, ROOT, relative } from './files.ts';
import { resolveStringArgument } from './string-values.ts';

export const LANGUAGES = ['zh-CN', 'zh-TW', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export interface LocaleFolder {
  /** Repository-relative folder, e.g. remotes/wallet/src/locales. */
  dir: string;
  /** The i18n namespace registered for these files. */
  namespace: string;
  /** Flattened `a.b.c` key → value, per language (missing file: null). */
  bundles: Record<Language, Map<string, unknown> | null>;
}

/** Nested JSON to `a.b.c` keys; leaves keep their raw value (strings expected). */
export function flatten(value: unknown, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) flatten(child, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
  return out;
}

/** {{name}} and {{name, format}} variables of one translation. */
export function interpolationVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([\w.-]+)\s*(?:,[^}]*)?\}\}/g)].map((m) => m[1] ?? ''))].sort();
}

function packageRoot(dir: string): string {
  let current = dir;
  while (current.startsWith(ROOT) && current !== ROOT) {
    if (existsSync(path.join(current, 'package.json'))) return current;
    current = path.dirname(current);
  }
  return ROOT;
}

/** The namespace a package registers (registerNamespace('x') or a const), else the folder name. */
function namespaceOf(localesDir: string): string {
  const pkg = packageRoot(localesDir);
  const registered = new Set<string>();
  for (const file of findFiles(pkg, /\.tsx?$/)) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes('registerNamespace(')) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isIdentifier(node.expression) &&
        node.expression.text === 'registerNamespace' &&
        node.arguments[0]
      ) {
        const ns = resolveStringArgument(node.arguments[0], source);
        if (ns) registered.add(ns);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  const only = [...registered];
  return only.length === 1 && only[0] ? only[0] : path.basename(pkg);
}

/** Every folder holding `{zh-CN,zh-TW,en,es}.json` translation files, outside node_modules. */
export function discoverLocaleFolders(): LocaleFolder[] {
  const files = findFiles(ROOT, /(^|\/)locales\/(zh-CN|zh-TW|en|es)\.json$/);
  const dirs = [...new Set(files.map((f) => path.dirname(f)))];
  return dirs.map((dir) => {
    const bundles = {} as LocaleFolder['bundles'];
    for (const language of LANGUAGES) {
      const file = path.join(dir, `${language}.json`);
      bundles[language] = existsSync(file) ? flatten(JSON.parse(readFileSync(file, 'utf8'))) : null;
    }
    return { dir: relative(dir), namespace: namespaceOf(dir), bundles };
  });
}
