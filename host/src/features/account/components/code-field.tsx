import { useTranslation } from 'react-i18next';
import type { FieldInputProps, FieldProblem } from '../hooks/use-form.ts';
import { FormField } from './form-field.tsx';
import { SendCodeButton } from './send-code-button.tsx';

/**
 * The e-mail code field with its send button, as registration, password reset and the fund
 * password ask for it: numeric keyboard, `one-time-code` autocomplete, 6 digits.
 */
export function CodeField({
  input,
  problem,
  onSend,
  testIds,
}: {
  input: FieldInputProps;
  problem: FieldProblem | undefined;
  onSend: () => Promise<number | null>;
  testIds: { input: string; send: string };
}) {
  const { t } = useTranslation('host');
  return (
    <FormField
      name="code"
      label={t('account.field.code')}
      problem={problem}
      extra={<SendCodeButton onSend={onSend} testId={testIds.send} />}
    >
      <input
        {...input}
        className="account-input"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        placeholder={t('account.placeholder.code')}
        data-testid={testIds.input}
      />
    </FormField>
  );
}
