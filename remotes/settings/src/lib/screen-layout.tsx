import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { useSettings } from '@cw/shared-state/settings';
import { Page } from '@cw/shared-ui/page';
import { toast } from '@cw/shared-ui/toast';
import { type ReactNode, useEffect } from 'react';
import { NAMESPACE } from '../i18n.ts';
import * as styles from './screen-layout.module.css';

interface ScreenLayoutProps {
  title: string;
  /** data-testid of the screen's root. */
  testId: string;
  /** Where "back" goes when the app was opened on this screen; no back arrow when absent. */
  parent?: string;
  children: ReactNode;
}

function hasHistory(): boolean {
  // The router keeps the index of the current entry in history.state.
  const state = window.history.state as { idx?: number } | null;
  return typeof state?.idx === 'number' && state.idx > 0;
}

/**
 * A settings screen: the shared Page (nav bar with title and back), lists
 * edge to edge. On first show it learns whether the settings live on the
 * server (signed in) or on this device.
 */
export function ScreenLayout({ title, testId, parent, children }: ScreenLayoutProps) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const ensureSynced = useSettings((s) => s.ensureSynced);
  useEffect(() => {
    ensureSynced().catch(() => toast.fail(t('common.loadFailed')));
  }, [ensureSynced, t]);
  const onBack = () => {
    if (hasHistory()) void navigate(-1);
    else if (parent) void navigate(parent, { replace: true });
  };
  return (
    <div className={styles.screen} data-testid={testId}>
      <Page title={title} back={parent !== undefined} onBack={onBack} bodyClassName={styles.body}>
        {children}
      </Page>
    </div>
  );
}
