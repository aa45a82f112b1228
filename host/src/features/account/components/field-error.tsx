import { ApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from 'react-i18next';
import type { FieldProblem } from '../hooks/use-form.ts';

/** The inline, translated message under a field (data-testid field-error-<name>). */
export function FieldError({ name, problem }: { name: string; problem: FieldProblem | undefined }) {
  const { t, i18n } = useTranslation('host');
  const message = useErrorMessage();
  if (!problem) return null;
  let text: string;
  if ('rule' in problem) {
    const key = `account.rule.${problem.rule}`;
    text = i18n.exists(key, { ns: 'host' })
      ? t(key)
      : message(new ApiError({ code: 'VALIDATION_FAILED', message: problem.rule, status: 400 }));
  } else {
    text = message(problem.error);
  }
  return (
    <div className="account-field__error" id={`${name}-error`} role="alert" data-testid={`field-error-${name}`}>
      {text}
    </div>
  );
}
