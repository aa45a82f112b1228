import { LANGUAGE_NAMES, LANGUAGES, type Language, useTranslation } from '@cw/shared-state/i18n';
import { useSettings } from '@cw/shared-state/settings';
import { List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { CheckMark } from '../../../lib/check-mark.tsx';
import { ScreenLayout } from '../../../lib/screen-layout.tsx';
import { useSave } from '../../../lib/use-save.ts';

/** /language: each language in its own name; a tap switches host and remotes at once, and saves. */
export default function LanguageScreen() {
  const { t } = useTranslation(NAMESPACE);
  const save = useSave();
  const language = useSettings((s) => s.language);
  const setLanguage = useSettings((s) => s.setLanguage);

  function choose(next: Language) {
    if (next !== language) void save(setLanguage(next));
  }

  return (
    <ScreenLayout title={t('language.title')} testId="settings-language-screen" parent="/settings">
      <List>
        {LANGUAGES.map((code) => (
          <List.Item
            key={code}
            data-testid={`language-option-${code}`}
            data-checked={code === language}
            arrowIcon={false}
            onClick={() => choose(code)}
            extra={<CheckMark checked={code === language} />}
          >
            <span lang={code}>{LANGUAGE_NAMES[code]}</span>
          </List.Item>
        ))}
      </List>
    </ScreenLayout>
  );
}
