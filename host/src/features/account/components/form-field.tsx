import type { ReactNode } from 'react';
import type { FieldProblem } from '../hooks/use-form.ts';
import { FieldError } from './field-error.tsx';

/** A labelled field row: label, the control (with optional extra, e.g. a send-code button), inline error. */
export function FormField(props: {
  name: string;
  label: string;
  problem: FieldProblem | undefined;
  children: ReactNode;
  extra?: ReactNode;
  /** A rule shown under the field while there is no error (placeholders stay short). */
  hint?: string;
}) {
  return (
    <div className={props.problem ? 'account-field account-field--invalid' : 'account-field'}>
      <label className="account-field__label" htmlFor={props.name}>
        {props.label}
      </label>
      <div className="account-field__control">
        {props.children}
        {props.extra}
      </div>
      {props.hint && !props.problem ? (
        <p className="account-field__hint" id={`${props.name}-hint`}>
          {props.hint}
        </p>
      ) : null}
      <FieldError name={props.name} problem={props.problem} />
    </div>
  );
}
