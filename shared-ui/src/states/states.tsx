import type { ReactNode } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import { Spinner } from '../internal/spinner.tsx';
import './states.css';

/** Centred spinner with a translated "loading" label. */
export function LoadingState({ text }: { text?: string }) {
  const { t } = useUiTranslation();
  const label = text ?? t('states.loading');
  return (
    <div className="cw-state" data-testid="state-loading" role="status">
      <Spinner size={28} />
      <span className="cw-state__text">{label}</span>
    </div>
  );
}

/** Nothing to show: translated "no data yet" unless `text` says otherwise. */
export function EmptyState({ text, children }: { text?: string; children?: ReactNode }) {
  const { t } = useUiTranslation();
  return (
    <div className="cw-state" data-testid="state-empty">
      <svg className="cw-state__image" viewBox="0 0 64 41" aria-hidden="true">
        <g fill="none" fillRule="evenodd" transform="translate(0 1)">
          <ellipse cx="32" cy="33" fill="#f5f5f5" rx="32" ry="7" />
          <g fillRule="nonzero" stroke="#d9d9d9">
            <path d="M55 12.8 44.9 1.3C44.4.5 43.7 0 43 0H21c-.7 0-1.4.5-1.9 1.3L9 12.8V22h46v-9.2z" />
            <path
              fill="#fafafa"
              d="M41.6 15.9c0-1.6 1-2.9 2.2-2.9H55v18.1c0 2.1-1.3 3.9-3 3.9H12c-1.7 0-3-1.7-3-3.9V13h11.2c1.2 0 2.2 1.3 2.2 2.9 0 1.6 1 2.9 2.2 2.9h14.8c1.2 0 2.2-1.3 2.2-2.9z"
            />
          </g>
        </g>
      </svg>
      <span className="cw-state__text">{text ?? t('states.empty')}</span>
      {children}
    </div>
  );
}

/** A failed request: the whole block is a button showing "Request failed, click to reload". */
export function ErrorState({ onRetry, text }: { onRetry: () => void; text?: string }) {
  const { t } = useUiTranslation();
  return (
    <button type="button" className="cw-state cw-state--error" data-testid="state-error" onClick={onRetry}>
      <span className="cw-state__text">{text ?? t('states.error')}</span>
    </button>
  );
}
