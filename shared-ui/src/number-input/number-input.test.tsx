import { fireEvent, render, screen } from '@testing-library/react';
import fc from 'fast-check';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { toastStore } from '../toast/index.ts';
import { checkDecimalInput, clampDecimal, compareDecimal, NumberInput, sanitizeDecimalInput } from './index.ts';

describe('sanitizeDecimalInput', () => {
  it.each([
    ['12a3', 0, '123'],
    ['-5', 0, '5'],
    ['1.5', 0, '15'],
    ['1.2345', 2, '1.23'],
    ['1.2.3', 4, '1.23'],
    ['.5', 2, '0.5'],
    ['007', 2, '7'],
    ['00.10', 2, '0.10'],
    ['12.', 2, '12.'],
    ['1,5', 2, '1.5'],
    ['1,000.25', 2, '1000.25'],
    ['１２３', 0, '123'],
    ['1e5', 0, '15'],
    ['', 2, ''],
    ['abc', 2, ''],
  ])('%j with %i decimals -> %j', (raw, decimals, expected) => {
    expect(sanitizeDecimalInput(raw, decimals)).toBe(expected);
  });

  it('always yields a plain decimal string within the allowed precision', () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 0, max: 18 }), (raw, decimals) => {
        const out = sanitizeDecimalInput(raw, decimals);
        expect(out).toMatch(decimals > 0 ? /^(\d+(\.\d*)?)?$/ : /^\d*$/);
        expect(out.split('.')[1]?.length ?? 0).toBeLessThanOrEqual(decimals);
        expect(sanitizeDecimalInput(out, decimals)).toBe(out);
      }),
    );
  });
});

describe('compareDecimal and clampDecimal', () => {
  it('compares exactly, beyond float precision', () => {
    expect(compareDecimal('0.1', '0.10')).toBe(0);
    expect(compareDecimal('9007199254740993', '9007199254740992')).toBe(1);
    expect(compareDecimal('0.000000000000000001', '0')).toBe(1);
    expect(compareDecimal('2', '10')).toBe(-1);
  });

  it('clamps to min and max and tidies a trailing point', () => {
    expect(clampDecimal('0.5', '1', '100')).toBe('1');
    expect(clampDecimal('100.01', '1', '100')).toBe('100');
    expect(clampDecimal('50.', '1', '100')).toBe('50');
    expect(clampDecimal('', '1', '100')).toBe('');
    expect(clampDecimal('7.25')).toBe('7.25');
  });
});

function Controlled(props: { decimals?: number; min?: string; max?: string }) {
  const [value, setValue] = useState('');
  return <NumberInput data-testid="amount" value={value} onChange={setValue} {...props} />;
}

describe('NumberInput', () => {
  it('strips while typing and clamps on blur', () => {
    render(<Controlled decimals={2} min="0.01" max="1000" />);
    const input = screen.getByTestId('amount') as HTMLInputElement;
    expect(input.getAttribute('inputmode')).toBe('decimal');
    fireEvent.change(input, { target: { value: '12.34' } });
    expect(input.value).toBe('12.34');
    fireEvent.change(input, { target: { value: '99999' } });
    fireEvent.blur(input);
    expect(input.value).toBe('1000');
    fireEvent.change(input, { target: { value: '0.00' } });
    fireEvent.blur(input);
    expect(input.value).toBe('0.01');
  });

  it('is numeric-only with 0 decimals', () => {
    render(<Controlled />);
    const input = screen.getByTestId('amount') as HTMLInputElement;
    expect(input.getAttribute('inputmode')).toBe('numeric');
    fireEvent.change(input, { target: { value: '4.5' } });
    expect(input.value).toBe('');
  });

  it('refuses what is not an amount, says why, and keeps what was typed', () => {
    render(<Controlled decimals={2} />);
    const input = screen.getByTestId('amount') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '1' } });
    fireEvent.change(input, { target: { value: '1e5' } });
    expect(input.value).toBe('1');
    expect(toastStore.getState().items.at(-1)?.message).toBe('金额只能输入数字和一个小数点');
    fireEvent.change(input, { target: { value: '1.234' } });
    expect(input.value).toBe('1');
    expect(toastStore.getState().items.at(-1)?.message).toBe('最多 2 位小数');
    // In Chinese "," groups thousands: "1,25" is a misplaced separator, refused (issue 40 item 4).
    fireEvent.change(input, { target: { value: '1,25' } });
    expect(input.value).toBe('1');
    expect(toastStore.getState().items.at(-1)?.message).toBe('小数点请用“.”；“,”只能用于每三位数字之间');
    fireEvent.change(input, { target: { value: '1,250.5' } });
    expect(input.value).toBe('1250.5');
  });

  it('in Spanish: shows the decimal comma, and a point typed after "1,5" is refused, never read as 15', () => {
    function Spanish() {
      const [value, setValue] = useState('');
      return (
        <>
          <NumberInput data-testid="amount" value={value} onChange={setValue} decimals={8} locale="es" />
          <output data-testid="plain">{value}</output>
        </>
      );
    }
    render(<Spanish />);
    const input = screen.getByTestId('amount') as HTMLInputElement;
    fireEvent.change(input, { target: { value: '1,5' } });
    expect([input.value, screen.getByTestId('plain').textContent]).toEqual(['1,5', '1.5']);
    fireEvent.change(input, { target: { value: '1,5.' } });
    expect([input.value, screen.getByTestId('plain').textContent]).toEqual(['1,5', '1.5']);
    fireEvent.change(input, { target: { value: '1.000,5' } });
    expect([input.value, screen.getByTestId('plain').textContent]).toEqual(['1000,5', '1000.5']);
  });
});

describe('checkDecimalInput', () => {
  it.each([
    ['1e5', 2, { ok: false, reason: 'characters' }],
    ['-5', 2, { ok: false, reason: 'characters' }],
    ['12x.3', 2, { ok: false, reason: 'characters' }],
    ['1.234', 2, { ok: false, reason: 'decimals' }],
    ['4.5', 0, { ok: false, reason: 'decimals' }],
    ['0.051661834245968354', 18, { ok: true, value: '0.051661834245968354' }],
    ['１２３', 0, { ok: true, value: '123' }],
    ['1,5', 2, { ok: true, value: '1.5' }],
    ['', 2, { ok: true, value: '' }],
  ] as const)('%j with %i decimals -> %j', (raw, decimals, expected) => {
    expect(checkDecimalInput(raw, decimals)).toEqual(expected);
  });
});
