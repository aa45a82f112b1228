import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useSession } from '@cw/shared-state/session';
import { Page } from '@cw/shared-ui/page';
import { toast } from '@cw/shared-ui/toast';
import { Input, TextArea } from 'antd-mobile';
import { type FormEvent, useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as form from '../../../lib/form.module.css';
import { PictureField } from '../../../lib/picture-field.tsx';
import { SubmitRow } from '../../../lib/submit-row.tsx';
import { usePictures } from '../../../lib/use-pictures.ts';
import { useLeaveMessageMutation } from '../api/support-queries.ts';
import { callingCode, defaultAreaCountry } from '../utils/area-codes.ts';
import { CONTENT_MAX, contactProblem, type MessageValues } from '../utils/contact.ts';
import { AreaCodePicker } from './area-code-picker.tsx';
import * as styles from './support.module.css';

const EMPTY: MessageValues = { phoneCountry: '', phone: '', email: '', content: '' };

/** /support: leave a message for support (visitors too): a phone with its area code, or an e-mail, and the text. */
export default function LeaveMessageScreen() {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const email = useSession((s) => s.me?.email ?? '');
  const country = useSession((s) => s.me?.country ?? '');
  const initial = (): MessageValues => ({ ...EMPTY, email, phoneCountry: defaultAreaCountry(country) });
  const [values, setValues] = useState<MessageValues>(initial);
  // The session may answer after the first render (a link straight to /support): fill an untouched area code then.
  useEffect(() => {
    const area = defaultAreaCountry(country);
    if (area) setValues((v) => (v.phoneCountry === '' && v.phone === '' ? { ...v, phoneCountry: area } : v));
  }, [country]);
  const [picking, setPicking] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const leave = useLeaveMessageMutation();
  const pictures = usePictures('message');
  const set = (key: keyof MessageValues) => (value: string) => setValues((v) => ({ ...v, [key]: value }));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const bad = contactProblem(values);
    if (bad) return setProblem(t(`support.problem.${bad}`));
    if (pictures.busy || pictures.failed)
      return setProblem(t(`tickets.problem.${pictures.busy ? 'uploading' : 'pictureFailed'}`));
    setProblem(null);
    leave.mutate(
      { ...values, uploadIds: pictures.ids },
      {
        onSuccess: () => {
          toast.success(t('support.sent'));
          setValues(initial());
          pictures.reset();
        },
        onError: (error) => setProblem(errorMessage(error)),
      },
    );
  };

  return (
    <Page title={t('support.title')}>
      <form className={form.form} noValidate onSubmit={onSubmit} data-testid="leave-message-form">
        <p className={form.hint}>{t('support.hint')}</p>
        <span className={form.label}>{t('support.phone')}</span>
        <div className={styles.phoneRow}>
          <button type="button" className={styles.area} onClick={() => setPicking(true)} data-testid="area-code">
            {values.phoneCountry ? `${values.phoneCountry} ${callingCode(values.phoneCountry)}` : t('support.areaCode')}
          </button>
          <Input
            className={`${form.input} ${styles.phoneInput}`}
            value={values.phone}
            onChange={set('phone')}
            inputMode="tel"
            autoComplete="tel-national"
            aria-label={t('support.phone')}
            data-testid="leave-phone"
          />
        </div>
        <span className={form.label}>{t('support.email')}</span>
        <Input
          className={form.input}
          value={values.email}
          onChange={set('email')}
          inputMode="email"
          autoComplete="email"
          aria-label={t('support.email')}
          data-testid="leave-email"
        />
        <label className={form.label} htmlFor="leave-content-text">
          {t('support.content')}
        </label>
        <TextArea
          id="leave-content-text"
          className={form.input}
          value={values.content}
          onChange={set('content')}
          maxLength={CONTENT_MAX}
          showCount
          rows={6}
          data-testid="leave-content"
        />
        <PictureField id="leave-pictures" pictures={pictures} />
        <SubmitRow
          problem={problem}
          problemTestId="leave-problem"
          submitTestId="leave-submit"
          loading={leave.isPending}
        >
          {t('support.submit')}
        </SubmitRow>
      </form>
      {picking ? (
        <AreaCodePicker
          value={values.phoneCountry}
          onClose={() => setPicking(false)}
          onSelect={(c) => (set('phoneCountry')(c), setPicking(false))}
        />
      ) : null}
    </Page>
  );
}
