import { changeLanguage, currentLanguage, isLanguage, LANGUAGE_NAMES, LANGUAGES } from '@cw/shared-state/i18n';
import GlobalOutline from 'antd-mobile-icons/es/GlobalOutline';
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
      <GlobalOutline aria-hidden="true" className="language-switch__icon" />
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
