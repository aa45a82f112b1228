import '../../../i18n.ts';
import { changeLanguage, type Language } from '@cw/shared-state/i18n';
import { resetToasts, toastStore } from '@cw/shared-ui/toast';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { SendForm } from '../hooks/use-send-form.ts';
import { AmountField } from './send-sections.tsx';

/** The amount field of the withdrawal form with the form's own amount state (the rest stubbed). */
function Harness({ onAmount }: { onAmount: (amountText: string) => void }) {
  const [amountText, setAmountText] = useState('');
  const form = {
    mode: 'withdrawal',
    coin: 'USDT',
    decimals: 6,
    limits: undefined,
    view: undefined,
    available: 0n,
    amountError: undefined,
    amountText,
    setAmountText: (next: string) => {
      setAmountText(next);
      onAmount(next);
    },
    touch: () => undefined,
  } as unknown as SendForm;
  return <AmountField form={form} />;
}

async function pasteInto(language: Language, text: string) {
  await changeLanguage(language);
  const amounts: string[] = [];
  render(
    <Suspense fallback={null}>
      <Harness onAmount={(next) => amounts.push(next)} />
    </Suspense>,
  );
  const input = (await screen.findByTestId('send-amount')) as HTMLInputElement;
  await userEvent.click(input);
  await userEvent.paste(text);
  return { input, amounts, toasts: toastStore.getState().items.length };
}

describe('withdrawal amount: a pasted amount is read in the language, never 1000x (security review item 1)', () => {
  afterEach(() => {
    act(() => resetToasts());
    cleanup();
  });

  it('en: a pasted "0,001" is refused with a notice, never read as 1', async () => {
    const { input, amounts, toasts } = await pasteInto('en', '0,001');
    expect(amounts).not.toContain('1');
    expect(amounts.every((amount) => amount === '' || amount === '0.001')).toBe(true);
    expect(input.value === '' || input.value === '0.001').toBe(true);
    expect(toasts).toBe(1);
  });

  it('es: a pasted "1.000" (a thousand, or 1.000 from a keypad) is refused', async () => {
    const { input, amounts, toasts } = await pasteInto('es', '1.000');
    expect(amounts).toEqual([]);
    expect(input.value).toBe('');
    expect(toasts).toBe(1);
  });

  it('en: a pasted "1,000.5" is a thousand and a half', async () => {
    const { input, amounts } = await pasteInto('en', '1,000.5');
    expect(amounts.at(-1)).toBe('1000.5');
    expect(input.value).toBe('1000.5');
  });
});
