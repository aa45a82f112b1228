import type { ReactNode } from 'react';
import * as form from './form.module.css';

/** What every input of these forms has: its id (for its label and the tests), value and change handler. */
export const fieldProps = (id: string, value: string, onChange: (value: string) => void) => ({
  id,
  'data-testid': id,
  className: form.input,
  value,
  onChange,
});

/** A labelled input of the mail remote's forms. */
export function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className={form.field}>
      <label className={form.label} htmlFor={id}>
        {label}
      </label>
      {children}
    </div>
  );
}
