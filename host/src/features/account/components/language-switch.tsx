import { changeLanguage, currentLanguage, isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@cw/shared-state/i18n';
import { useTranslation } from 'react-i18next';

/**
 * The globe on the sign-up and login screens: a native select (the phone's own picker, no extra
 * script on the landing page) over the globe and the current language's name. Choosing a language
 * remembers it, and that choice wins over the browser's preference from then on.
 */
export function LanguageSwitch() {
  // useTranslation re-renders on a language change; currentLanguage() reads the one in force.
  const { t } = useTranslation('host');
  const language = currentLanguage();
  return (
    <label className="language-switch" data-testid="language-switch">
      <GlobeIcon />
      <span className="language-switch__name" aria-hidden="true">
        {LANGUAGE_NAMES[language]}
      </span>
      <select
        className="language-switch__select"
        aria-label={t('account.language')}
        value={language}
        data-testid="language-switch-select"
        onChange={(event) => {
          if (isLanguage(event.target.value)) void changeLanguage(event.target.value);
        }}
      >
        {LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The globe, drawn here in the icon kit's 1em outline style (the kit's path data is ~1.5 KB on the landing page). */
function GlobeIcon() {
  return (
    <svg
      className="language-switch__icon"
      width="1em"
      height="1em"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.6"
      aria-hidden="true"
    >
      <circle cx="12" cy="12" r="9.2" />
      <path d="M2.8 12h18.4M12 2.8c2.6 2.6 3.9 5.7 3.9 9.2s-1.3 6.6-3.9 9.2c-2.6-2.6-3.9-5.7-3.9-9.2S9.4 5.4 12 2.8Z" />
    </svg>
  );
}
