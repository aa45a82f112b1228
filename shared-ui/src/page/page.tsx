import { useNavigate } from '@cw/shared-state/router';
import { LeftOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import './page.css';

export interface PageProps {
  /** The page title, already translated by the caller. */
  title: ReactNode;
  children?: ReactNode;
  /** Right side of the nav bar (e.g. a records link). */
  right?: ReactNode;
  /** Show the back arrow. Default true. */
  back?: boolean;
  /** Replaces the default back action (history back). */
  onBack?: () => void;
  /** Extra class of the page body (e.g. to drop the default padding). */
  bodyClassName?: string;
  className?: string;
}

/**
 * Every screen's layout: a sticky nav bar (back arrow where there is a parent, the title, an action on
 * the right), then the content. A plain header rather than antd-mobile's NavBar, whose left area is
 * itself a role=button around our back button (nested controls, a button without a name).
 */
export function Page({ title, children, right, back = true, onBack, bodyClassName = '', className = '' }: PageProps) {
  const navigate = useNavigate();
  const { t } = useUiTranslation();
  const backButton = back ? (
    <button
      type="button"
      className="cw-page__back"
      data-testid="page-back"
      aria-label={t('common.back')}
      onClick={onBack ?? (() => void navigate(-1))}
    >
      <LeftOutline aria-hidden />
    </button>
  ) : null;
  return (
    <div className={`cw-page ${className}`}>
      <header className="cw-page__nav">
        <div className="cw-page__nav-side">{backButton}</div>
        <h1 className="cw-page__title">{title}</h1>
        <div className="cw-page__nav-side cw-page__nav-side--right">{right}</div>
      </header>
      <main className={`cw-page__body ${bodyClassName}`}>{children}</main>
    </div>
  );
}
