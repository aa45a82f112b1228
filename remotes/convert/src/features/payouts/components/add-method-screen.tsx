import { isApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { chatApps, identityTypes, pixKeyTypes } from '@cw/shared-state/payouts';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { useSession } from '@cw/shared-state/session';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { Page } from '@cw/shared-ui/page';
import { PasswordField } from '@cw/shared-ui/password-field';
import { toast } from '@cw/shared-ui/toast';
import { Button } from 'antd-mobile';
import { type FormEvent, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useAddPaymentMethod } from '../../../lib/payment-methods.ts';
import { defaultPayoutKind } from '../utils/default-kind.ts';
import {
  EMPTY,
  FIELDS,
  type MethodKind,
  type MethodValues,
  methodKinds,
  problems,
  toRequest,
} from '../utils/method-form.ts';
import * as css from './payouts.module.css';

type Problems = Partial<Record<keyof MethodValues, string>>;

/** The server's field problems (VALIDATION_FAILED details) as this form's. */
function serverProblems(err: unknown): Problems | null {
  if (!isApiError(err) || err.code !== 'VALIDATION_FAILED' || !Array.isArray(err.details)) return null;
  const out: Problems = {};
  for (const d of err.details as { field: string; rule?: string }[])
    out[d.field as keyof MethodValues] = d.rule ?? 'format';
  return out;
}

/** The one choice each kind has besides its text fields, placed before the field it qualifies. */
const CHOICES = {
  identityType: { testId: 'payout-identity-type', columns: 2, options: identityTypes, before: 'identityNumber' },
  keyType: { testId: 'payout-key-type', columns: 3, options: pixKeyTypes, before: 'key' },
  app: { testId: 'payout-app', columns: 2, options: chatApps, before: 'handle' },
} as const;
type ChoiceField = keyof typeof CHOICES;

function Choice({
  field,
  values,
  set,
}: {
  field: ChoiceField;
  values: MethodValues;
  set: (next: Partial<MethodValues>) => void;
}) {
  const { t } = useTranslation(NAMESPACE);
  const choice = CHOICES[field];
  return (
    <ChipSelect
      testId={choice.testId}
      columns={choice.columns}
      options={choice.options.map((v) => ({ value: v, label: t(`payouts.${field}.${v}`) }))}
      value={values[field]}
      onChange={(v) => set({ [field]: v } as Partial<MethodValues>)}
    />
  );
}

const choiceBefore = (field: keyof MethodValues): ChoiceField | undefined =>
  (Object.keys(CHOICES) as ChoiceField[]).find((c) => CHOICES[c].before === field);

/**
 * A new method is where a sell's money goes: with a stolen session alone it would be the thief's, so
 * adding one takes the fund password (issue 38). A user without one is sent to set it first.
 */
function FundPasswordField({
  hasFundPassword,
  value,
  problem,
  onChange,
}: {
  hasFundPassword: boolean;
  value: string;
  problem: string | undefined;
  onChange: (digits: string) => void;
}) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  if (!hasFundPassword)
    return (
      <div className={css.field} data-testid="payout-no-fund-password">
        <p className={css.muted}>{t('payouts.noFundPassword')}</p>
        <Button size="small" color="primary" fill="outline" onClick={() => void navigate('/securitySettings')}>
          {t('payouts.setFundPassword')}
        </Button>
      </div>
    );
  return (
    <div className={css.field}>
      <label className={css.label} htmlFor="payout-fundPassword">
        {t('payouts.field.fundPassword')}
      </label>
      <PasswordField
        id="payout-fundPassword"
        data-testid="payout-fundPassword"
        value={value}
        onChange={(e) => onChange(e.target.value.replace(/\D/g, '').slice(0, 6))}
        inputMode="numeric"
        autoComplete="off"
        maxLength={6}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? 'payout-fundPassword-error' : undefined}
      />
      {problem ? (
        <span id="payout-fundPassword-error" className={css.error} role="alert" data-testid="payout-fundPassword-error">
          {t([`payouts.rule.fundPassword.${problem}`, `payouts.rule.${problem}`, 'payouts.rule.format'])}
        </span>
      ) : null}
    </div>
  );
}

/**
 * /buySell/paymentMethods/add?kind=: an Indian bank account (account twice, IFSC, bank, holder,
 * identity), a PIX key, a UPI id or the chat-app method. Each field says what is wrong in the shared
 * rules' words before sending; the server checks the IFSC against the bank list too.
 */
export default function AddMethodScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const [params, setParams] = useSearchParams();
  const wanted = params.get('kind');
  const country = useSession((s) => s.me?.country);
  const kind: MethodKind = methodKinds.find((k) => k === wanted) ?? defaultPayoutKind(country);
  const [values, setValues] = useState<MethodValues>(EMPTY);
  const [shown, setShown] = useState<Problems>({});
  const add = useAddPaymentMethod();
  const hasFundPassword = useSession((s) => s.me?.hasFundPassword === true);
  const set = (next: Partial<MethodValues>) => setValues((v) => ({ ...v, ...next }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = problems(kind, values);
    setShown(found);
    if (Object.keys(found).length > 0) return;
    add.mutate(toRequest(kind, values), {
      onSuccess: () => {
        toast.success(t('payouts.added'));
        void navigate('/buySell/paymentMethods', { replace: true });
      },
      onError: (err) => {
        const fields = serverProblems(err);
        if (fields) setShown(fields);
        else toast.fail(errorMessage(err));
      },
    });
  };
  return (
    <Page title={t('payouts.addTitle')}>
      <form className={css.card} noValidate onSubmit={submit} data-testid="payment-method-form">
        <ChipSelect
          testId="payout-kind"
          columns={2}
          options={methodKinds.map((k) => ({ value: k, label: t(`payouts.kind.${k}`) }))}
          value={kind}
          onChange={(k) => {
            setShown({});
            setParams({ kind: k }, { replace: true });
          }}
        />
        {FIELDS[kind].map((field) => (
          <div key={field} className={css.field}>
            {choiceBefore(field) ? (
              <Choice field={choiceBefore(field) as ChoiceField} values={values} set={set} />
            ) : null}
            <label className={css.label} htmlFor={`payout-${field}`}>
              {t(`payouts.field.${field === 'identityNumber' ? values.identityType : field}`)}
            </label>
            <input
              id={`payout-${field}`}
              data-testid={`payout-${field}`}
              className={css.input}
              value={values[field]}
              autoComplete="off"
              inputMode={['accountNumber', 'confirmAccountNumber'].includes(field) ? 'numeric' : undefined}
              aria-invalid={shown[field] ? true : undefined}
              aria-describedby={shown[field] ? `payout-${field}-error` : undefined}
              onChange={(e) => set({ [field]: e.target.value } as Partial<MethodValues>)}
            />
            {shown[field] ? (
              <span
                id={`payout-${field}-error`}
                className={css.error}
                role="alert"
                data-testid={`payout-${field}-error`}
              >
                {t([`payouts.rule.${field}.${shown[field]}`, `payouts.rule.${shown[field]}`, 'payouts.rule.format'])}
              </span>
            ) : null}
          </div>
        ))}
        <FundPasswordField
          hasFundPassword={hasFundPassword}
          value={values.fundPassword}
          problem={shown.fundPassword}
          onChange={(fundPassword) => set({ fundPassword })}
        />
        <p className={css.muted}>{t('payouts.sealedNote')}</p>
        <Button
          block
          type="submit"
          color="primary"
          loading={add.isPending}
          disabled={!hasFundPassword}
          data-testid="payment-method-save"
        >
          {t('payouts.save')}
        </Button>
      </form>
    </Page>
  );
}
