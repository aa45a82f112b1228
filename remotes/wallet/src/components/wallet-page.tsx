import { useNavigate } from '@cw/shared-state/router';
import { Page } from '@cw/shared-ui/page';
import type { ReactNode } from 'react';
import * as styles from './wallet-page.module.css';

interface WalletPageProps {
  title: string;
  /** data-testid of the screen's root. */
  testId: string;
  /** Where "back" goes when the app was opened on this screen. */
  parent?: string;
  right?: ReactNode;
  children: ReactNode;
}

function hasHistory(): boolean {
  // The router keeps the index of the current entry in history.state.
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/** A wallet screen: the shared Page (nav bar with title and back) on the grey page background. */
export function WalletPage({ title, testId, parent, right, children }: WalletPageProps) {
  const navigate = useNavigate();
  const onBack = () => {
    if (hasHistory()) void navigate(-1);
    else void navigate(parent ?? '/coinTopup', { replace: true });
  };
  return (
    <div className={styles.screen} data-testid={testId}>
      <Page title={title} back={parent !== undefined} onBack={onBack} right={right} bodyClassName={styles.body}>
        {children}
      </Page>
    </div>
  );
}
