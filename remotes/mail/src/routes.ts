import type { RemoteRoutesModule } from '@cw/shared-state/contracts';
import { lazyScreen } from '@cw/shared-state/preload';
import { NAMESPACE } from './i18n.ts';

const HubScreen = lazyScreen(() => import('./features/hub/components/hub-screen.tsx'));
const NoticeScreen = lazyScreen(() => import('./features/notices/components/notice-screen.tsx'));
const SendMailScreen = lazyScreen(() => import('./features/send-mail/components/send-mail-screen.tsx'));
const MailHistoryScreen = lazyScreen(() => import('./features/send-mail/components/mail-history-screen.tsx'));
const MailDetailScreen = lazyScreen(() => import('./features/send-mail/components/mail-detail-screen.tsx'));
const LeaveMessageScreen = lazyScreen(() => import('./features/support/components/leave-message-screen.tsx'));
const TicketsScreen = lazyScreen(() => import('./features/tickets/components/tickets-screen.tsx'));
const NewTicketScreen = lazyScreen(() => import('./features/tickets/components/new-ticket-screen.tsx'));
const TicketDetailScreen = lazyScreen(() => import('./features/tickets/components/ticket-detail-screen.tsx'));
const ChatScreen = lazyScreen(() => import('./features/chat/components/chat-screen.tsx'));
const NoticeDetailScreen = lazyScreen(() => import('./features/notices/components/notice-detail-screen.tsx'));

const remote: RemoteRoutesModule = {
  namespace: NAMESPACE,
  routes: [
    { path: '/mail', Component: HubScreen, titleKey: 'hub.title' },
    { path: '/sendemails', Component: SendMailScreen, titleKey: 'sendMail.title', requiresLogin: true },
    { path: '/sendHistory', Component: MailHistoryScreen, titleKey: 'sendMail.historyTitle', requiresLogin: true },
    { path: '/mailDetail', Component: MailDetailScreen, titleKey: 'sendMail.detailTitle', requiresLogin: true },
    { path: '/support', Component: LeaveMessageScreen, titleKey: 'support.title' },
    { path: '/supportMail', Component: TicketsScreen, titleKey: 'tickets.title', requiresLogin: true },
    { path: '/supportMail/new', Component: NewTicketScreen, titleKey: 'tickets.newTitle', requiresLogin: true },
    {
      path: '/supportMail/detail',
      Component: TicketDetailScreen,
      titleKey: 'tickets.detailTitle',
      requiresLogin: true,
    },
    { path: '/chat', Component: ChatScreen, titleKey: 'chat.title', requiresLogin: true },
    { path: '/notice', Component: NoticeScreen, titleKey: 'notice.title' },
    { path: '/noticeDetail', Component: NoticeDetailScreen, titleKey: 'notice.detailTitle' },
  ],
};

export default remote;
