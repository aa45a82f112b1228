import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ChipSelect } from './index.ts';

const options = [
  { label: 'BNB Smart Chain (BEP-20)', value: 'BSC' },
  { label: 'Ethereum (ERC-20)', value: 'ETH' },
];

describe('ChipSelect', () => {
  it('marks the chosen value and reports a new choice', () => {
    const onChange = vi.fn();
    render(<ChipSelect options={options} value="BSC" onChange={onChange} testId="network" columns={2} />);
    expect(screen.getByTestId('network').getAttribute('data-value')).toBe('BSC');
    fireEvent.click(screen.getByTestId('network-ETH'));
    expect(onChange).toHaveBeenCalledWith('ETH');
  });

  it('wraps a label only between words', () => {
    render(<ChipSelect options={options} value="BSC" onChange={() => {}} testId="network" />);
    const words = [...screen.getByTestId('network-ETH').querySelectorAll('span')].map((s) => s.textContent);
    expect(words).toEqual(['Ethereum', '(ERC-20)']);
    expect(screen.getByTestId('network-ETH').textContent).toBe('Ethereum (ERC-20)');
  });
});
