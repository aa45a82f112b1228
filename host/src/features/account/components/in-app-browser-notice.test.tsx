import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../test-helpers.tsx';
import { InAppBrowserNotice } from './in-app-browser-notice.tsx';

const render = (element: React.ReactElement) => renderAt('/login', element);

const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148';
const win = window as unknown as Record<string, unknown>;

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  delete win.okxwallet;
});

describe("the login screen in a wallet's in-app browser (issue 33)", () => {
  it("says which wallet's browser this is and to sign in once here", async () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(PHONE_UA);
    win.okxwallet = { request: async () => '0x1' };
    render(<InAppBrowserNotice />);
    // The host's locale files load on first use.
    await waitFor(() =>
      expect(screen.getByTestId('login-in-app-browser').textContent).toBe(
        '你是在 OKX Wallet 的浏览器中打开的：请在这里登录一次。',
      ),
    );
  });

  it('says nothing in an ordinary phone browser or on a desktop with a wallet extension', () => {
    vi.spyOn(navigator, 'userAgent', 'get').mockReturnValue(PHONE_UA);
    const { container } = render(<InAppBrowserNotice />);
    expect(container.querySelector('[data-testid="login-in-app-browser"]')).toBeNull();
    cleanup();
    vi.restoreAllMocks();
    win.okxwallet = { request: async () => '0x1' };
    const desktop = render(<InAppBrowserNotice />);
    expect(desktop.container.querySelector('[data-testid="login-in-app-browser"]')).toBeNull();
  });
});
