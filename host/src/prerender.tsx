/**
 * The build's entry for the pre-rendered landing pages (scripts/lib/prerender.ts bundles it for Node and
 * calls renderScreen for each of PRERENDERED_PATHS). It renders the app itself, through a StaticRouter, in
 * the default language and the phone layout: exactly what boot.ts's first render in such a browser gives,
 * so that it hydrates.
 */
import { DEFAULT_LANGUAGE, i18n } from '@cw/shared-state/i18n';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { AppShell } from './app/app.tsx';

export { PRERENDERED_ATTRIBUTE, PRERENDERED_PATHS } from './prerendered.ts';

/** Render the screen at `path` to HTML, waiting for its lazy parts and translations (no fallbacks). */
export async function renderScreen(path: string): Promise<string> {
  await i18n.changeLanguage(DEFAULT_LANGUAGE);
  function AtPath({ children }: { children: ReactNode }) {
    return <StaticRouter location={path}>{children}</StaticRouter>;
  }
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(<AppShell Router={AtPath} />, {
    onError: (error) => {
      errors.push(error);
    },
  });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk));
  if (errors.length > 0) throw new AggregateError(errors, `pre-rendering ${path} failed`);
  return Buffer.concat(chunks).toString('utf8');
}
