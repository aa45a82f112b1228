import { useNavigate } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import type { ReactNode } from 'react';
import * as styles from './convert-page.module.css';

interface ConvertPageProps {
  title: string;
  /** data-testid of the screen's root. */
  testId: string;
  /** Where "back" goes when the app was opened on this screen; unset: no back arrow. */
  parent?: string;
  right?: ReactNode;
  children: ReactNode;
}

function hasHistory(): boolean {
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** A convert screen: the shared Page on the grey background. */
export function ConvertPage({ title, testId, parent, right, children }: ConvertPageProps) {
  const navigate = useNavigate();
  const onBack = () => {
    if (hasHistory()) void navigate(-1);
    else void navigate(parent ?? '/convert', { replace: true });
  };
  return (
    <div className={styles.screen} data-testid={testId}>
      <Page title={title} back={parent !== undefined} onBack={onBack} right={right} bodyClassName={styles.body}>
        {children}
      </Page>
    </div>
  );
}
