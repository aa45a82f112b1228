import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findFiles, ROOT, relative } from './files.ts';
import { findUntranslatedText } from './jsx-literals.ts';
import { discoverLocaleFolders, interpolationVariables, LANGUAGES } from './locales.ts';
import { findTranslationCalls } from './translation-calls.ts';

const folders = discoverLocaleFolders();
const UI_SOURCES = /^(host\/src|remotes\/[^/]+\/src|shared-ui\/src)\/.*(?<!\.test)\.tsx$/;
const CODE_SOURCES = /^(host\/src|remotes\/[^/]+\/src|shared-ui\/src|shared-state\/src)\/.*(?<!\.test)\.tsx?$/;

function fail(problems: string[]): void {
  expect(problems, `\n${problems.join('\n')}\n`).toEqual([]);
}

describe('i18n gate: translation files', () => {
  it('finds the host and every remote namespace', () => {
    const namespaces = folders.map((f) => f.namespace);
    for (const ns of ['host', 'wallet', 'convert', 'rewards', 'mail', 'settings']) expect(namespaces).toContain(ns);
  });

  it.each(folders.map((f) => [f.dir, f] as const))(
    '%s: four languages, same keys, no empty strings, same variables',
    (_dir, folder) => {
      const problems: string[] = [];
      const reference = folder.bundles['zh-CN'];
      for (const language of LANGUAGES) {
        if (!folder.bundles[language]) problems.push(`${folder.dir}/${language}.json is missing`);
      }
      const allKeys = new Set(LANGUAGES.flatMap((l) => [...(folder.bundles[l]?.keys() ?? [])]));
      for (const key of [...allKeys].sort()) {
        for (const language of LANGUAGES) {
          const bundle = folder.bundles[language];
          if (!bundle) continue;
          const value = bundle.get(key);
          const at = `${folder.dir}/${language}.json "${key}"`;
          if (value === undefined) problems.push(`${at}: missing`);
          else if (typeof value !== 'string') problems.push(`${at}: not a string`);
          else if (value.trim() === '') problems.push(`${at}: empty`);
          else if (reference) {
            const expected = reference.get(key);
            if (typeof expected === 'string') {
              const want = interpolationVariables(expected).join(', ');
              const got = interpolationVariables(value).join(', ');
              if (want !== got) problems.push(`${at}: variables {${got}} differ from zh-CN {${want}}`);
            }
          }
        }
      }
      fail(problems);
    },
  );
});

describe('i18n gate: source code', () => {
  it('has no untranslated user-visible text in JSX', () => {
    const problems: string[] = [];
    for (const file of findFiles(ROOT, UI_SOURCES)) {
      for (const f of findUntranslatedText(file, readFileSync(file, 'utf8'))) {
        problems.push(`${relative(file)}:${f.line} untranslated "${f.text}"`);
      }
    }
    fail(problems);
  });

  it("uses only t('key') keys that exist in the namespace's zh-CN.json", () => {
    const byNamespace = new Map(folders.map((f) => [f.namespace, f.bundles['zh-CN']]));
    const problems: string[] = [];
    for (const file of findFiles(ROOT, CODE_SOURCES)) {
      for (const call of findTranslationCalls(file, readFileSync(file, 'utf8'))) {
        const bundle = byNamespace.get(call.namespace);
        const where = `${relative(file)}:${call.line}`;
        if (!bundle) {
          problems.push(`${where} namespace "${call.namespace}" has no zh-CN.json`);
          continue;
        }
        const plural = ['zero', 'one', 'two', 'few', 'many', 'other'].some((s) => bundle.has(`${call.key}_${s}`));
        if (!bundle.has(call.key) && !plural)
          problems.push(`${where} "${call.namespace}:${call.key}" is not in zh-CN.json`);
      }
    }
    fail(problems);
  });
});
