import { useTranslation } from 'react-i18next';
import type { FieldInputProps, FieldProblem } from '../hooks/use-form.ts';
import { PASSWORD_INPUT_MAX } from '../utils/rules.ts';
import { FormField } from './form-field.tsx';
import { PasswordInput } from './password-input.tsx';

type PasswordName = 'password' | 'confirmPassword';

interface NewPasswordFieldsProps {
  form: {
    input: (name: PasswordName) => FieldInputProps;
    problems: Partial<Record<PasswordName, FieldProblem>>;
  };
  /** 'new' on screens that replace an existing password. */
  variant: 'first' | 'new';
  testIds: { password: string; confirm: string };
}

/**
 * The new password and its confirmation, as registration, reset and change
 * all ask for them: `new-password` autocomplete so password managers offer to
 * generate and save, inline rule messages under each field.
 */
export function NewPasswordFields({ form, variant, testIds }: NewPasswordFieldsProps) {
  const { t } = useTranslation('host');
  return (
    <>
      <FormField
        name="password"
        label={variant === 'new' ? t('account.field.newPassword') : t('account.field.password')}
        problem={form.problems.password}
        hint={t('account.hint.password')}
      >
        <PasswordInput
          {...form.input('password')}
          autoComplete="new-password"
          maxLength={PASSWORD_INPUT_MAX}
          placeholder={t('account.placeholder.password')}
          aria-describedby="password-hint"
          data-testid={testIds.password}
        />
      </FormField>
      <FormField
        name="confirmPassword"
        label={t('account.field.confirmPassword')}
        problem={form.problems.confirmPassword}
      >
        <PasswordInput
          {...form.input('confirmPassword')}
          autoComplete="new-password"
          maxLength={PASSWORD_INPUT_MAX}
          placeholder={t('account.placeholder.confirmPassword')}
          data-testid={testIds.confirm}
        />
      </FormField>
    </>
  );
}
