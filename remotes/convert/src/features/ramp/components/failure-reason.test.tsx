import '../../../i18n.ts';
import { changeLanguage, type Language } from '@cw/shared-state/i18n';
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import en from '../../../locales/en.json';
import es from '../../../locales/es.json';
import zhCN from '../../../locales/zh-CN.json';
import zhTW from '../../../locales/zh-TW.json';
import { KNOWN_REASONS } from '../utils/failure-reason.ts';
import { FailureReason } from './failure-reason.tsx';

const LOCALES: Record<Language, { ramp: { reason: Record<string, string> } }> = {
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  en,
  es,
};

async function shown(language: Language, reason: string): Promise<string> {
  await changeLanguage(language);
  render(
    <Suspense fallback={null}>
      <div data-testid="reason">
        <FailureReason reason={reason} />
      </div>
    </Suspense>,
  );
  const text = (await screen.findByTestId('reason')).textContent ?? '';
  cleanup();
  return text;
}

describe('buy/sell failure reasons (issue 30 item 2)', () => {
  afterEach(cleanup);

  for (const language of Object.keys(LOCALES) as Language[]) {
    it(`shows each known reason in ${language}, not the provider's code`, async () => {
      for (const code of KNOWN_REASONS) {
        const text = await shown(language, code);
        expect(text).toBe(LOCALES[language].ramp.reason[code]);
        expect(text).not.toContain(code);
      }
    });
  }

  it('translates a reason with a detail by its code', async () => {
    expect(await shown('en', 'provider_terms_mismatch:fiat_amount')).toBe(
      "The provider's terms did not match your quote; nothing was sent",
    );
  });

  it('shows an unknown reason as the provider sent it (the fallback)', async () => {
    expect(await shown('es', 'insufficient_funds_at_issuer')).toBe('insufficient_funds_at_issuer');
  });
});
