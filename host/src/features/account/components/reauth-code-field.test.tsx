import { queryClient } from '@cw/shared-state/api';
import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { json, renderAt } = await import('../test-helpers.tsx');
const { ReauthCodeField } = await import('./reauth-code-field.tsx');

const overview = (factors: { totp: boolean; passkeys: number; recoveryCodesLeft: number }) => ({
  factors,
  allowlist: { on: false, offAt: null },
  locks: [],
  lastSignIn: null,
  failedSinceLastSignIn: 0,
  next: [],
});

function show(factors: { totp: boolean; passkeys: number; recoveryCodesLeft: number }) {
  fetchMock.mockResolvedValue(json(200, overview(factors)));
  renderAt(
    '/securitySettings',
    <QueryClientProvider client={queryClient}>
      <ReauthCodeField value="" onChange={() => undefined} testId="code" />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  fetchMock.mockReset();
  queryClient.clear();
});
afterEach(cleanup);

describe('ReauthCodeField', () => {
  it('a passkey-only account is asked for a recovery code, not an app code', async () => {
    show({ totp: false, passkeys: 1, recoveryCodesLeft: 10 });
    await vi.waitFor(() => expect(screen.getByTestId('code').dataset.factor).toBe('recovery'));
    expect(screen.getByText('恢复码（无法使用通行密钥时）')).toBeTruthy();
  });

  it('an account with the app is asked for its code; one with no factor for nothing', async () => {
    show({ totp: true, passkeys: 1, recoveryCodesLeft: 10 });
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(screen.getByTestId('code').dataset.factor).toBe('totp');
    cleanup();
    queryClient.clear();
    show({ totp: false, passkeys: 0, recoveryCodesLeft: 0 });
    await vi.waitFor(() => expect(screen.queryByTestId('code')).toBeNull());
  });
});
