import { TabBar } from 'antd-mobile';
import { AppOutline, MailOutline, SetOutline, StarOutline } from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';

import { TAB_PATHS } from './tab-paths.ts';
import { useMailBadge } from './use-mail-badge.ts';

const TAB_LOOK: Record<(typeof TAB_PATHS)[number], { labelKey: string; icon: ReactNode }> = {
  '/coinTopup': { labelKey: 'nav.wallet', icon: <AppOutline /> },
  '/convert': { labelKey: 'nav.convert', icon: <SwapIcon /> },
  '/rewards': { labelKey: 'nav.rewards', icon: <StarOutline /> },
  '/mail': { labelKey: 'nav.mail', icon: <MailOutline /> },
  '/settings': { labelKey: 'nav.settings', icon: <SetOutline /> },
};

export default function AppTabBar() {
  const { t } = useTranslation('host');
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const unread = useMailBadge();
  const badge = (path: string) => (path === '/mail' && unread > 0 ? (unread > 99 ? '99+' : unread) : undefined);
  return (
    <nav className="app-tabbar" data-testid="tabbar">
      <TabBar activeKey={pathname} onChange={(key) => navigate(key)} safeArea>
        {TAB_PATHS.map((path) => (
          <TabBar.Item
            key={path}
            icon={TAB_LOOK[path].icon}
            title={t(TAB_LOOK[path].labelKey)}
            badge={badge(path)}
            data-testid={`tab-${path.slice(1)}`}
          />
        ))}
      </TabBar>
    </nav>
  );
}

/** antd-mobile-icons has no swap arrows; two arrows in the kit's 1em outline style. */
function SwapIcon() {
  return (
    <svg
      width="1em"
      height="1em"
      viewBox="0 0 48 48"
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      aria-hidden="true"
    >
      <path d="M8 16h30l-8-8M40 32H10l8 8" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
