import { useSession } from '@cw/shared-state/session';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupScreen, renderScreen, resetSettings } from '../../../lib/test-helpers.tsx';

const navigate = vi.fn();
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => navigate }));

const { AccountSection } = await import('./account-section.tsx');

const ME = {
  id: '00000000-0000-0000-0000-000000000001',
  username: 'alice_1',
  nickname: null,
  email: 'alice@example.com',
  emailMasked: 'al***@example.com',
  country: 'ES',
  hasFundPassword: true,
  createdAt: '2026-01-01T00:00:00Z',
};

const logout = vi.fn<() => Promise<void>>();

describe('settings account section', () => {
  beforeEach(async () => {
    await resetSettings('zh-CN');
    navigate.mockClear();
    logout.mockReset().mockResolvedValue(undefined);
    useSession.setState({ status: 'authenticated', me: ME, logout });
  });
  afterEach(cleanupScreen);

  it('shows the initial, the name and the masked e-mail, and opens the security settings', async () => {
    renderScreen(<AccountSection />);
    expect((await screen.findByTestId('settings-account-name')).textContent).toBe('alice_1');
    expect(screen.getByTestId('settings-account-email').textContent).toBe('al***@example.com');
    expect(screen.getByTestId('settings-account').textContent).toContain('A');
    fireEvent.click(screen.getByTestId('settings-security'));
    expect(navigate).toHaveBeenCalledWith('/securitySettings');
  });

  it('logs out only after the confirm dialog, then goes to /login', async () => {
    renderScreen(<AccountSection />);
    fireEvent.click(await screen.findByTestId('settings-logout'));
    expect((await screen.findByTestId('dialog-confirm')).textContent).toBeTruthy();
    expect(logout).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('dialog-confirm'));
    await waitFor(() => expect(navigate).toHaveBeenCalledWith('/login', { replace: true }));
    expect(logout).toHaveBeenCalledOnce();
  });

  it('cancelling the dialog keeps the user logged in', async () => {
    renderScreen(<AccountSection />);
    fireEvent.click(await screen.findByTestId('settings-logout'));
    fireEvent.click(await screen.findByTestId('dialog-cancel'));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(logout).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('offers a visitor the way to log in', async () => {
    useSession.setState({ status: 'anonymous', me: null });
    renderScreen(<AccountSection />);
    fireEvent.click(await screen.findByTestId('settings-account-login'));
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});
