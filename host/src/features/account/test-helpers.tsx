import { i18n } from '@cw/shared-state/i18n';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { registerHostTranslations } from '../../i18n/index.ts';

registerHostTranslations();

function Where() {
  const { pathname } = useLocation();
  return <output data-testid="location">{pathname}</output>;
}

/** Render `element` at `path` inside the router, i18n (zh-CN) and a location probe. */
export function renderAt(path: string, element: ReactElement, routePath = path) {
  return render(
    <I18nextProvider i18n={i18n}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={routePath} element={element} />
          <Route path="*" element={null} />
        </Routes>
        <Where />
      </MemoryRouter>
    </I18nextProvider>,
  );
}

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}
