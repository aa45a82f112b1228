import { changeLanguage, LANGUAGES } from '@cw/shared-state/i18n';
import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderAt } from '../test-helpers.tsx';
import { FundPasswordForm } from './fund-password-form.tsx';

afterEach(async () => {
  cleanup();
  await changeLanguage('zh-CN');
});

describe('fund password hint', () => {
  it.each(LANGUAGES)('%s: two sentences, each ended, on two lines', async (language) => {
    await changeLanguage(language);
    renderAt('/securitySettings', <FundPasswordForm emailMasked="al***@example.com" onDone={() => undefined} />);
    const hint = await screen.findByTestId('fund-hint');
    await waitFor(() => expect(hint.textContent).toContain('al***@example.com'));
    const lines = hint.innerHTML.split('<br>');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line.trim()).toMatch(/[.。]$/);
  });
});
