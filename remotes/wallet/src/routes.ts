import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';
import { NAMESPACE } from './i18n.ts';

const HubScreen = lazyScreen(() => import('./features/balances/components/hub-screen.tsx'));
const DepositScreen = lazyScreen(() => import('./features/deposit/components/deposit-screen.tsx'));
const DepositDetailScreen = lazyScreen(() => import('./features/deposit/components/deposit-detail-screen.tsx'));
const SendScreen = lazyScreen(() => import('./app/send-route.tsx'));
const ConfirmScreen = lazyScreen(() => import('./features/send/components/confirm-screen.tsx'));
const FundPasswordCheckScreen = lazyScreen(() => import('./features/send/components/fund-password-check-screen.tsx'));
const FundPasswordScreen = lazyScreen(() => import('./features/send/components/fund-password-screen.tsx'));
const EmailCodeScreen = lazyScreen(() => import('./features/send/components/email-code-screen.tsx'));
const WithdrawalDetailScreen = lazyScreen(() => import('./features/send/components/withdrawal-detail-screen.tsx'));
const VerifyScreen = lazyScreen(() => import('./features/proof/components/verify-screen.tsx'));
const HistoryScreen = lazyScreen(() => import('./features/history/components/history-screen.tsx'));
const AddressBookScreen = lazyScreen(() => import('./features/address-book/components/address-book-screen.tsx'));
const AddAddressScreen = lazyScreen(() => import('./features/address-book/components/add-address-screen.tsx'));
const EditAddressScreen = lazyScreen(() => import('./features/address-book/components/edit-address-screen.tsx'));

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [
    // The hub is public (it says that login comes first); everything behind it needs a session.
    { path: '/coinTopup', Component: HubScreen, titleKey: 'hub.title' },
    { path: '/coinTopup/deposit', Component: DepositScreen, titleKey: 'deposit.title', requiresLogin: true },
    { path: '/coinTopup/verify', Component: VerifyScreen, titleKey: 'proof.title', requiresLogin: true },
    { path: '/coinTopup/topup', Component: DepositDetailScreen, titleKey: 'topup.title', requiresLogin: true },
    { path: '/coinTopup/send', Component: SendScreen, titleKey: 'send.title', requiresLogin: true },
    { path: '/coinTopup/send/affirm', Component: ConfirmScreen, titleKey: 'affirm.title', requiresLogin: true },
    {
      path: '/coinTopup/verification/pwd',
      Component: FundPasswordCheckScreen,
      titleKey: 'verify.pwdTitle',
      requiresLogin: true,
    },
    {
      path: '/coinTopup/verification/capitalPwd',
      Component: FundPasswordScreen,
      titleKey: 'verify.capitalTitle',
      requiresLogin: true,
    },
    {
      path: '/coinTopup/verification/email',
      Component: EmailCodeScreen,
      titleKey: 'verify.emailTitle',
      requiresLogin: true,
    },
    {
      path: '/coinTopup/withdrawDeposit',
      Component: WithdrawalDetailScreen,
      titleKey: 'withdrawDetail.title',
      requiresLogin: true,
    },
    { path: '/coinTopup/history', Component: HistoryScreen, titleKey: 'history.title', requiresLogin: true },
    { path: '/addressBook', Component: AddressBookScreen, titleKey: 'addressBook.title', requiresLogin: true },
    { path: '/addressBook/add', Component: AddAddressScreen, titleKey: 'addressBook.addTitle', requiresLogin: true },
    {
      path: '/addressBook/edit',
      Component: EditAddressScreen,
      titleKey: 'addressBook.editTitle',
      requiresLogin: true,
    },
  ],
};

export default remote;
