import { describe, expect, it } from 'vitest';
import { HELP_TOPICS, TOPIC_PARAGRAPHS } from '../features/help/utils/help-topics.ts';
import en from './en.json';
import es from './es.json';
import zhCN from './zh-CN.json';
import zhTW from './zh-TW.json';

const bundles = { 'zh-CN': zhCN, 'zh-TW': zhTW, en, es };

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

function lookup(bundle: unknown, key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], bundle);
}

describe('settings locales', () => {
  it.each(Object.entries(bundles))('%s has the same keys as zh-CN', (_language, bundle) => {
    expect(keys(bundle).sort()).toEqual(keys(zhCN).sort());
  });

  it.each(Object.entries(bundles))(
    '%s has every help topic (built keys the i18n gate cannot see)',
    (_language, bundle) => {
      for (const topic of HELP_TOPICS) {
        for (const part of ['title', 'summary', ...TOPIC_PARAGRAPHS]) {
          expect(lookup(bundle, `help.topics.${topic}.${part}`), `${topic}.${part}`).toEqual(expect.any(String));
        }
      }
    },
  );
});
