import { LANGUAGES } from '@cw/shared-state/i18n';
import { describe, expect, it } from 'vitest';
import en from './locales/en.json';
import es from './locales/es.json';
import zhCN from './locales/zh-CN.json';
import zhTW from './locales/zh-TW.json';

const bundles = { 'zh-CN': zhCN, 'zh-TW': zhTW, en, es } as const;

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

function leaves(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  return typeof value === 'object' && value !== null ? Object.values(value).flatMap(leaves) : [];
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('ui locales', () => {
  it('cover every language with the same keys and placeholders, none empty', () => {
    expect(Object.keys(bundles).sort()).toEqual([...LANGUAGES].sort());
    const reference = keys(zhCN).sort();
    for (const [language, bundle] of Object.entries(bundles)) {
      expect(keys(bundle).sort(), language).toEqual(reference);
      for (const text of leaves(bundle)) expect(text.trim(), language).not.toBe('');
      for (const key of reference) {
        const get = (b: unknown) =>
          key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], b) as string;
        expect(placeholders(get(bundle)), `${language}:${key}`).toEqual(placeholders(get(zhCN)));
      }
    }
  });
});

describe('used keys', () => {
  it('every t() key in the source exists', async () => {
    const { readFileSync, readdirSync } = await import('node:fs');
    const path = await import('node:path');
    const root = path.join(import.meta.dirname, '..');
    const files = (readdirSync(root, { recursive: true }) as string[]).filter(
      (f) => /\.tsx?$/.test(f) && !f.includes('.test.'),
    );
    const known = new Set(keys(zhCN));
    const used = files.flatMap((file) =>
      [...readFileSync(path.join(root, file), 'utf8').matchAll(/\bt(?:ranslateUi)?\('([\w.]+)'/g)].map((m) => m[1]),
    );
    expect(used.length).toBeGreaterThan(20);
    expect(used.filter((key) => !known.has(key as string))).toEqual([]);
  });
});
