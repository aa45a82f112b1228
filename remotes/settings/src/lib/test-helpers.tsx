import '../i18n.ts';
import { changeLanguage, type Language } from '@cw/shared-state/i18n';
import { useSession } from '@cw/shared-state/session';
import { DEFAULT_SETTINGS, useSettings } from '@cw/shared-state/settings';
import { cancelAllDialogs, DialogHost } from '@cw/shared-ui/dialog';
import { resetToasts, ToastHost } from '@cw/shared-ui/toast';
import { act, cleanup, render } from '@testing-library/react';
import { type ReactElement, Suspense } from 'react';

/** Signed-out defaults, empty storage, the given language. */
export async function resetSettings(language: Language = 'zh-CN'): Promise<void> {
  localStorage.clear();
  useSession.setState({ status: 'anonymous', me: null });
  await changeLanguage(language);
  // 'synced': signed out, already known (no server request from the screens).
  useSettings.setState({
    ...DEFAULT_SETTINGS,
    language,
    source: 'local',
    syncStatus: 'synced',
    local: { ...DEFAULT_SETTINGS, language },
  });
}

/** A screen as the host shows it: suspending while translations load, with the shared dialogs and toasts. */
export function renderScreen(screen: ReactElement) {
  return render(
    <>
      <Suspense fallback={null}>{screen}</Suspense>
      <DialogHost />
      <ToastHost />
    </>,
  );
}

export function cleanupScreen(): void {
  act(() => {
    cancelAllDialogs();
    resetToasts();
  });
  cleanup();
}
