import '../../../i18n.ts';
import { changeLanguage, type Language } from '@cw/shared-state/i18n';
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HubState } from '../api/hub-state.ts';

vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => vi.fn() }));
const USDT = { decimals: 6, displayDecimals: 2, displayDecimalsAtOne: 2 };
vi.mock('@cw/shared-state/catalogue', () => ({ useCatalogue: () => ({ view: { displayOf: () => USDT } }) }));

const SIGNED_IN = {
  signedIn: true,
  sign: {
    streak: 4,
    todayState: 'confirmed',
    asset: 'USDT',
    claimableMinor: '1200000',
    waitingMinor: '300000',
    claimedMinor: '200000',
  },
  likes: { earned: 3, used: 1 },
  invite: {
    asset: 'USDT',
    rewardMinor: '2500000',
    qualifyingMinor: '37000000',
    invitations: [{ rewardMinor: '2500000' }, { rewardMinor: null }],
  },
} as unknown as HubState;
let state: HubState = SIGNED_IN;
vi.mock('../api/hub-state.ts', () => ({ useHubState: () => state }));

const { default: HubScreen } = await import('./hub-screen.tsx');

async function show(language: Language) {
  await changeLanguage(language);
  render(
    <Suspense fallback={null}>
      <HubScreen />
    </Suspense>,
  );
  await screen.findByTestId('rewards-hub');
}

describe("rewards hub: today's state at a glance (issue 30 items 6 and 1)", () => {
  afterEach(() => {
    cleanup();
    state = SIGNED_IN;
  });

  it.each(['zh-CN', 'zh-TW', 'en', 'es'] as const)(
    '%s: streak, today, amounts, draws left, invites',
    async (language) => {
      await show(language);
      const sign = screen.getByTestId('hub-status-sign').textContent ?? '';
      expect(sign).toContain('4');
      expect(sign).toMatch(/1[.,]2 USDT/); // claimable
      expect(sign).toMatch(/0[.,]5 USDT/); // pending: waiting 0.3 + claimed, not delivered 0.2
      expect(screen.getByTestId('hub-status-likes').textContent).toMatch(/(^|[^0-9])2$/);
      const invite = screen.getByTestId('hub-status-invite').textContent ?? '';
      expect(invite).toContain('2');
      expect(invite).toMatch(/2[.,]5 USDT/); // earned, and the configured reward
      expect(invite).toMatch(/(^|[^0-9])37 USDT/); // the configured qualifying deposit
      expect(screen.queryByText(/版本|Build|Versión/)).toBeNull();
    },
  );

  it('en: the words of each state', async () => {
    await show('en');
    expect(screen.getByTestId('hub-status-sign').textContent).toBe(
      'Streak: 4 days · checked in todayClaimable 1.2 USDT · Pending 0.5 USDT',
    );
    expect(screen.getByTestId('hub-status-likes').textContent).toBe('Draws left today: 2');
    expect(screen.getByTestId('hub-status-invite').textContent).toBe(
      'Friends invited: 2 · Earned 2.5 USDT2.5 USDT goes to your pending rewards once a friend is credited a deposit of at least 37 USDT',
    );
  });

  it('a visitor sees the descriptions only, with no promise that both sides are rewarded', async () => {
    state = { signedIn: false };
    await show('en');
    expect(screen.queryByTestId('hub-status-sign')).toBeNull();
    expect(screen.getByTestId('hub-entry-invite').textContent).not.toMatch(/both/i);
  });
});
