import { changeLanguage } from '@cw/shared-state/i18n';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DateField } from './date-field.tsx';

afterEach(async () => {
  cleanup();
  await changeLanguage('zh-CN');
});

describe('DateField', () => {
  it('shows the day in the UI language, never as mm/dd/yyyy', async () => {
    const { rerender } = render(
      <DateField value="2026-03-02" onChange={() => undefined} label="从" placeholder="不限" testId="d" />,
    );
    expect(screen.getByTestId('d').textContent).toBe('2026年3月2日');
    await changeLanguage('es');
    rerender(<DateField value="2026-03-02" onChange={() => undefined} label="Desde" placeholder="—" testId="d" />);
    await waitFor(() => expect(screen.getByTestId('d').textContent).toBe('2 mar 2026'));
  });

  it('shows the placeholder when empty, and clears a chosen day', () => {
    const onChange = vi.fn();
    const { rerender } = render(<DateField value="" onChange={onChange} label="从" placeholder="不限" testId="d" />);
    expect(screen.getByTestId('d').textContent).toBe('不限');
    expect(screen.queryByTestId('d-clear')).toBeNull();
    rerender(<DateField value="2026-03-02" onChange={onChange} label="从" placeholder="不限" testId="d" />);
    fireEvent.click(screen.getByTestId('d-clear'));
    expect(onChange).toHaveBeenCalledWith('');
  });
});
