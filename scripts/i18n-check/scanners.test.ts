import { describe, expect, it } from 'vitest';
import { findUntranslatedText } from './jsx-literals.ts';
import { flatten, interpolationVariables } from './locales.ts';
import { findTranslationCalls } from './translation-calls.ts';

describe('i18n scanners catch what they should', () => {
  it('flags JSX text and literal text attributes, in any script, with their line', () => {
    const source = [
      'export const A = () => (',
      '  <div title="Hello">',
      '    你好',
      "    <input placeholder={'Email'} aria-label={t('x')} />",
      '    {"inline"} {count} · 42',
      '    <Dialog confirmText="OK" cancelText={`Cancel`} description="说明" label="Name" />',
      '    <img alt="logo" />',
      '    {/* i18n-ignore */} BTC',
      '  </div>',
      ');',
    ].join('\n');
    const found = findUntranslatedText('a.tsx', source).map((f) => `${f.line}:${f.text}`);
    expect(found).toEqual([
      '2:Hello',
      '3:你好',
      '4:Email',
      '5:inline',
      '6:OK',
      '6:Cancel',
      '6:说明',
      '6:Name',
      '7:logo',
    ]);
  });

  it('passes translated JSX', () => {
    const source = "export const A = () => <p title={t('a.b')}>{t('c', { n: 1 })} {value} 100% · —</p>;";
    expect(findUntranslatedText('a.tsx', source)).toEqual([]);
  });

  it('finds t() keys with their namespace from useTranslation literals, consts and aliases', () => {
    const source = [
      "const NS = 'wallet';",
      'function A() {',
      '  const { t } = useTranslation(NS);',
      "  const { t: th } = useTranslation('host');",
      "  return [t('hub.title'), th('nav.mail'), t('host:common.loading'), t(dynamic)];",
      '}',
    ].join('\n');
    expect(findTranslationCalls('a.tsx', source)).toEqual([
      { line: 5, namespace: 'wallet', key: 'hub.title' },
      { line: 5, namespace: 'host', key: 'nav.mail' },
      { line: 5, namespace: 'host', key: 'common.loading' },
    ]);
  });

  it('flattens nested bundles and reads interpolation variables', () => {
    expect([...flatten({ a: { b: 'x', c: { d: 'y' } }, e: '' }).keys()]).toEqual(['a.b', 'a.c.d', 'e']);
    expect(interpolationVariables('{{ amount }} {{coin, uppercase}} {{amount}}')).toEqual(['amount', 'coin']);
  });
});
