import { lazyScreen } from '@cw/shared-state/preload';
import type { ComponentType } from 'react';
import { SignInScreen } from './screens/sign-in-screen.tsx';

export interface HostRoute {
  path: string;
  Component: ComponentType;
  requiresLogin: boolean;
  /** A logged-in user is sent to the wallet instead (registration). */
  visitorsOnly?: boolean;
}

/** The account screens: /signIn (the landing page) is bundled, the rest load lazily. */
export const ACCOUNT_ROUTES: HostRoute[] = [
  { path: '/signIn', Component: SignInScreen, requiresLogin: false, visitorsOnly: true },
  { path: '/login', Component: lazyScreen(() => import('./screens/login-screen.tsx')), requiresLogin: false },
  {
    path: '/forgetPassword',
    Component: lazyScreen(() => import('./screens/forget-password-screen.tsx')),
    requiresLogin: false,
  },
  {
    path: '/editLoginPwd',
    Component: lazyScreen(() => import('./screens/edit-login-pwd-screen.tsx')),
    requiresLogin: true,
  },
  {
    path: '/editUserPassword',
    Component: lazyScreen(() => import('./screens/edit-user-password-screen.tsx')),
    requiresLogin: false,
  },
  {
    path: '/securitySettings',
    Component: lazyScreen(() => import('./screens/security-settings-screen.tsx')),
    requiresLogin: true,
  },
  { path: '/appDown', Component: lazyScreen(() => import('./screens/app-down-screen.tsx')), requiresLogin: false },
  { path: '/agreement', Component: lazyScreen(() => import('./screens/agreement-screen.tsx')), requiresLogin: false },
];
