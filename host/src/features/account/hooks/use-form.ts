import { fieldErrors, isApiError } from '@cw/shared-state/api';
import { type ChangeEvent, useCallback, useLayoutEffect, useRef, useState } from 'react';
import { takeMarkupValue } from '../utils/markup-values.ts';

/** A broken client rule (`<group>.<rule>`, see account.rule.* translations) or a server error. */
export type FieldProblem = { rule: string } | { error: unknown };

/** What form.input(name) spreads onto an <input>. */
export interface FieldInputProps {
  id: string;
  name: string;
  value: string | undefined;
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  onBlur: () => void;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
}

/** Returns the broken rule's key, e.g. 'password.length', or null. */
export type FieldCheck<V> = (value: string, values: V) => string | null;

export type Checks<V> = { [K in keyof V]?: FieldCheck<V> };

/** Which form field a server error code belongs to (shown inline there). */
export type ErrorFields<V> = Partial<Record<string, keyof V>>;

/** Server field names (request body) -> the translation group of their rules. */
const RULE_GROUPS: Partial<Record<string, string>> = {
  username: 'username',
  nickname: 'nickname',
  country: 'country',
  password: 'password',
  confirmPassword: 'confirm',
  oldPassword: 'oldPassword',
  email: 'email',
  code: 'code',
  identifier: 'identifier',
  fundPassword: 'fundPassword',
  confirmFundPassword: 'fundConfirm',
};

/**
 * Small form state: values, per-field problems shown inline, validation on
 * blur and, once a field has been checked, on every change; validate() on
 * submit checks everything and focuses the first bad field.
 */
export function useForm<V extends Record<string, string>>(initial: V, checks: Checks<V>, prefill?: () => Partial<V>) {
  const [values, setValues] = useState(initial);
  const [problems, setProblems] = useState<Partial<Record<keyof V, FieldProblem>>>({});
  const checked = useRef(new Set<keyof V>());
  const names = Object.keys(initial) as (keyof V)[];

  // Values of this browser (a remembered address, an invite link's code) go in after the first render, into
  // fields still empty: the first render must be the markup the build pre-rendered for the landing screens,
  // or hydrating it fails. A layout effect, so a screen rendered afresh never paints without them.
  // What the user typed into the pre-rendered page before the app took it over wins: hydration keeps the
  // field's text, not the form's state; a fresh render (another language) kept it in markup-values.ts.
  // A field the user is in gets nothing: they are about to type, and a value put in between their select-all
  // and their text would be prepended to what they type (seen in e2e: an address followed by a user name).
  const prefillOnce = useRef({ prefill, names });
  useLayoutEffect(() => {
    const found = { ...prefillOnce.current.prefill?.() } as Partial<Record<keyof V, string>>;
    for (const name of prefillOnce.current.names) {
      const field = document.getElementById(String(name));
      const typed =
        field instanceof HTMLInputElement && field.value !== '' ? field.value : takeMarkupValue(String(name));
      if (typed) found[name] = typed;
      else if (field !== null && field === document.activeElement) delete found[name];
    }
    setValues((current) => {
      let next = current;
      for (const [name, value] of Object.entries(found) as [keyof V, string | undefined][]) {
        if (value && current[name] === '') next = { ...next, [name]: value };
      }
      return next;
    });
  }, []);

  const run = useCallback(
    (name: keyof V, all: V): FieldProblem | undefined => {
      const rule = checks[name]?.(all[name] ?? '', all);
      return rule ? { rule } : undefined;
    },
    [checks],
  );

  const setValue = (name: keyof V, value: string) => {
    const next = { ...values, [name]: value };
    setValues(next);
    setProblems((current) => {
      const updated = { ...current };
      for (const field of names) {
        if (field === name || checked.current.has(field))
          updated[field] = checked.current.has(field) ? run(field, next) : undefined;
      }
      return updated;
    });
  };

  const blur = (name: keyof V) => {
    if (values[name] === '' && !checked.current.has(name)) return;
    checked.current.add(name);
    setProblems((current) => ({ ...current, [name]: run(name, values) }));
  };

  /** Check every field (or only `only`); returns true when all pass. */
  const validate = (only?: (keyof V)[]): boolean => {
    const fields = only ?? names;
    const found: Partial<Record<keyof V, FieldProblem>> = {};
    for (const name of fields) {
      checked.current.add(name);
      found[name] = run(name, values);
    }
    setProblems((current) => ({ ...current, ...found }));
    const first = fields.find((name) => found[name]);
    if (first !== undefined) document.getElementById(String(first))?.focus();
    return first === undefined;
  };

  /** Show a server error inline on its field; false when it belongs to no field. */
  const showServerError = (error: unknown, fields: ErrorFields<V>): boolean => {
    if (!isApiError(error)) return false;
    const detail = fieldErrors(error).find((d) => d.field in initial);
    const field: keyof V | undefined = detail ? (detail.field as keyof V) : fields[error.code];
    if (field === undefined) return false;
    const group = detail ? RULE_GROUPS[detail.field] : undefined;
    const problem: FieldProblem = detail && group ? { rule: `${group}.${detail.rule}` } : { error };
    checked.current.delete(field);
    setProblems((current) => ({ ...current, [field]: problem }));
    document.getElementById(String(field))?.focus();
    return true;
  };

  const input = (name: keyof V & string): FieldInputProps => ({
    id: name,
    name,
    value: values[name],
    onChange: (event: ChangeEvent<HTMLInputElement>) => setValue(name, event.target.value),
    onBlur: () => blur(name),
    'aria-invalid': problems[name] ? true : undefined,
    'aria-describedby': problems[name] ? `${name}-error` : undefined,
  });

  return { values, problems, setValue, validate, showServerError, input };
}
