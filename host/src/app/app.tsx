import { i18n } from '@cw/shared-state/i18n';
import { DialogHost } from '@cw/shared-ui/dialog';
import { ToastHost } from '@cw/shared-ui/toast';
import { StrictMode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { registerHostTranslations } from '../i18n/index.ts';
import { AppRoutes } from './router.tsx';

registerHostTranslations();

export function App() {
  return (
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <BrowserRouter>
          <AppRoutes />
          <ToastHost />
          <DialogHost />
        </BrowserRouter>
      </I18nextProvider>
    </StrictMode>
  );
}
