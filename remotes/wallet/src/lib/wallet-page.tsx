import { Page } from '@cw/shared-ui/page';
import type { ReactNode } from 'react';
import { useBackOr } from './use-back.ts';
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

/** A wallet screen: the shared Page (nav bar with title and back) on the grey page background. */
export function WalletPage({ title, testId, parent, right, children }: WalletPageProps) {
  const onBack = useBackOr(parent ?? '/coinTopup');
  return (
    <div className={styles.screen} data-testid={testId}>
      <Page title={title} back={parent !== undefined} onBack={onBack} right={right} bodyClassName={styles.body}>
        {children}
      </Page>
    </div>
  );
}
