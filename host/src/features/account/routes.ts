import { lazyScreen } from '@cw/shared-state/preload';
import type { ComponentType } from 'react';
import { RegisterScreen } from './components/register-screen.tsx';

export interface HostRoute {
  path: string;
  Component: ComponentType;
  requiresLogin: boolean;
  /** A logged-in user is sent to the wallet instead (registration). */
  visitorsOnly?: boolean;
}

/** The account screens: /signIn (the landing page) is bundled, the rest load lazily. */
export const ACCOUNT_ROUTES: HostRoute[] = [
  { path: '/signIn', Component: RegisterScreen, requiresLogin: false, visitorsOnly: true },
  { path: '/login', Component: lazyScreen(() => import('./components/login-screen.tsx')), requiresLogin: false },
  {
    path: '/forgetPassword',
    Component: lazyScreen(() => import('./components/forgot-password-screen.tsx')),
    requiresLogin: false,
  },
  {
    path: '/editLoginPwd',
    Component: lazyScreen(() => import('./components/change-password-screen.tsx')),
    requiresLogin: true,
  },
  {
    path: '/editUserPassword',
    Component: lazyScreen(() => import('./components/change-password-by-code-screen.tsx')),
    requiresLogin: false,
  },
  {
    path: '/securitySettings',
    Component: lazyScreen(() => import('./components/security-settings-screen.tsx')),
    requiresLogin: true,
  },
  {
    path: '/changeEmail',
    Component: lazyScreen(() => import('./components/change-email-screen.tsx')),
    requiresLogin: true,
  },
  {
    path: '/antiPhishing',
    Component: lazyScreen(() => import('./components/anti-phishing-screen.tsx')),
    requiresLogin: true,
  },
  {
    path: '/securityLogins',
    Component: lazyScreen(() => import('./components/login-history-screen.tsx')),
    requiresLogin: true,
  },
  {
    path: '/freeze',
    Component: lazyScreen(() => import('./components/freeze-link-screen.tsx')),
    requiresLogin: false,
  },
  {
    path: '/confirm-device',
    Component: lazyScreen(() => import('./components/device-link-screen.tsx')),
    requiresLogin: false,
  },
  {
    path: '/appDown',
    Component: lazyScreen(() => import('./components/app-download-screen.tsx')),
    requiresLogin: false,
  },
  {
    path: '/agreement',
    Component: lazyScreen(() => import('./components/agreement-screen.tsx')),
    requiresLogin: false,
  },
];
