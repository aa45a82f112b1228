import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PasswordField } from './index.ts';

describe('PasswordField', () => {
  it('is a real password input with passthrough props, revealed by the eye', () => {
    const onChange = vi.fn();
    render(<PasswordField name="password" autoComplete="new-password" data-testid="pw" onChange={onChange} />);
    const input = screen.getByTestId('pw') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.name).toBe('password');
    expect(input.getAttribute('autocomplete')).toBe('new-password');
    fireEvent.change(input, { target: { value: 'secret_123' } });
    expect(onChange).toHaveBeenCalled();
    const eye = screen.getByTestId('password-reveal');
    expect(eye.getAttribute('aria-label')).toBe('显示密码');
    fireEvent.click(eye);
    expect(input.type).toBe('text');
    expect(input.value).toBe('secret_123');
    expect(eye.getAttribute('aria-label')).toBe('隐藏密码');
    fireEvent.click(eye);
    expect(input.type).toBe('password');
  });
});
