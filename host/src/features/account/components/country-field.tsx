import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useHydrated } from '../hooks/use-hydrated.ts';
import { countryName } from '../utils/country-names.ts';

const CountryPicker = lazy(() => import('./country-picker.tsx'));

/** Shows the chosen country (localised name) and opens the searchable picker. */
export function CountryField(props: {
  name: string;
  value: string;
  invalid: boolean;
  onChange: (code: string) => void;
  testId: string;
}) {
  const { t, i18n } = useTranslation('host');
  const [open, setOpen] = useState(false);
  // In the pre-rendered landing page a tap before the app has taken the form over opens nothing: the button
  // says so (aria-disabled, which assistive technology and browser tests wait on) without changing its look.
  const live = useHydrated();
  return (
    <>
      <button
        type="button"
        id={props.name}
        className={props.value ? 'account-input account-select' : 'account-input account-select account-select--empty'}
        data-testid={props.testId}
        data-value={props.value}
        aria-haspopup="dialog"
        aria-disabled={live ? undefined : true}
        aria-invalid={props.invalid || undefined}
        aria-describedby={props.invalid ? `${props.name}-error` : undefined}
        onClick={() => setOpen(true)}
      >
        {props.value ? countryName(props.value, i18n.language) : t('account.placeholder.country')}
      </button>
      {open && (
        <Suspense fallback={null}>
          <CountryPicker
            value={props.value}
            onClose={() => setOpen(false)}
            onSelect={(code) => {
              props.onChange(code);
              setOpen(false);
            }}
          />
        </Suspense>
      )}
    </>
  );
}
