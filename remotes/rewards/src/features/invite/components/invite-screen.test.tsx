import '../../../i18n.ts';
import { changeLanguage, type Language } from '@cw/shared-state/i18n';
import { cleanup, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => vi.fn() }));
const USDT = { decimals: 6, displayDecimals: 2, displayDecimalsAtOne: 2 };
vi.mock('@cw/shared-state/catalogue', () => ({ useCatalogue: () => ({ view: { displayOf: () => USDT } }) }));
// A configuration unlike the defaults (1 USDT for a 10 USDT deposit): the text must follow it.
const INVITE = {
  code: 'ABCD2345',
  asset: 'USDT',
  rewardMinor: '2500000',
  qualifyingMinor: '37000000',
  holdHours: 30,
  invitations: [],
};
vi.mock('../api/invite.ts', () => ({
  useInvite: () => ({ data: INVITE, isError: false }),
  inviteLink: (origin: string, code: string) => `${origin}/signIn?invite=${code}`,
}));

const { default: InviteScreen } = await import('./invite-screen.tsx');

async function ruleIn(language: Language): Promise<string> {
  await changeLanguage(language);
  render(
    <Suspense fallback={null}>
      <InviteScreen />
    </Suspense>,
  );
  return (await screen.findByTestId('invite-rule')).textContent ?? '';
}

describe('the invite rule says what the server books, in its configured numbers (issue 30 item 1)', () => {
  afterEach(cleanup);

  it.each(['zh-CN', 'zh-TW', 'en', 'es'] as const)('%s: the reward and the qualifying deposit', async (language) => {
    const text = await ruleIn(language);
    expect(text).toMatch(/2[.,]5 USDT/);
    expect(text).toMatch(/(^|[^0-9])37 USDT/);
    expect(text).not.toMatch(/(^|[^0-9.,])1 USDT|(^|[^0-9.,])10 USDT/);
  });

  it('promises the inviter only, once per friend (the invitee is not rewarded)', async () => {
    const text = await ruleIn('en');
    expect(text).toContain('Once per friend');
    expect(text).toContain('your friend gets no invite reward');
    // The reward is held as pending for the configured hours (issue 36, invite recycling).
    expect(text).toContain('30 hours');
    expect(text).not.toMatch(/both/i);
  });
});
