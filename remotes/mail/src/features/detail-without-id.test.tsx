import '../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import type { ComponentType } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// The screens read ?id= through the host's router; here a link that has none.
vi.mock('@cw/shared-state/router', () => ({
  useSearchParams: () => [new URLSearchParams(''), () => undefined],
  useNavigate: () => () => undefined,
  useLocation: () => ({ pathname: '/', search: '', hash: '', state: null, key: 'default' }),
  Link: ({ children }: { children: unknown }) => children,
}));

const { default: NoticeDetailScreen } = await import('./notices/components/notice-detail-screen.tsx');
const { default: MailDetailScreen } = await import('./send-mail/components/mail-detail-screen.tsx');
const { default: TicketDetailScreen } = await import('./tickets/components/ticket-detail-screen.tsx');

const fetchMock = vi.fn(async () => new Response('{}', { status: 500 }));

/** A detail link without its id has nothing to ask for (the query is off): no spinner for ever, no retry. */
describe.each([
  ['/noticeDetail', NoticeDetailScreen],
  ['/mailDetail', MailDetailScreen],
  ['/supportMail/detail', TicketDetailScreen],
] as [string, ComponentType][])('%s without an id', (_path, Screen) => {
  beforeEach(async () => {
    await changeLanguage('en');
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    fetchMock.mockClear();
  });

  it('shows the empty state, not the spinner, and asks the server nothing', async () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <Screen />
      </QueryClientProvider>,
    );
    expect(await screen.findByTestId('state-empty')).toBeTruthy();
    expect(screen.queryByTestId('state-loading')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
