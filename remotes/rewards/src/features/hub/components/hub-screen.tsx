import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { HubList } from '@cw/shared-ui/hub-list';
import type { ReactNode } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { type HubState, useHubState } from '../api/hub-state.ts';
import { HUB_ENTRIES } from '../utils/hub-entries.ts';

/** Every entry has its screen in this build. */
const AVAILABLE: ReadonlySet<string> = new Set<string>(HUB_ENTRIES.map((e) => e.path));

function Lines({ lines }: { lines: string[] }) {
  return lines.map((line) => (
    <span key={line} style={{ display: 'block' }}>
      {line}
    </span>
  ));
}

/** What each entry says about today, in amounts from the server's configuration and the user's records. */
function useEntryStatus(state: HubState): Record<string, ReactNode> {
  const { t } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { view } = useCatalogue(state.signedIn);
  if (!state.signedIn || !view) return {};
  const amount = (minor: string | bigint, asset: string) =>
    `${format.display(minor.toString(), view.displayOf(asset))} ${asset}`;
  const status: Record<string, ReactNode> = {};
  const { sign, likes, invite } = state;
  if (sign) {
    const today = t(`hub.state.today.${sign.todayState}`);
    const pending = BigInt(sign.waitingMinor) + BigInt(sign.claimedMinor);
    status.sign = (
      <Lines
        lines={[
          `${t('hub.state.streak', { days: sign.streak })} · ${today}`,
          t('hub.state.amounts', {
            claimable: amount(sign.claimableMinor, sign.asset),
            pending: amount(pending, sign.asset),
          }),
        ]}
      />
    );
  }
  if (likes) status.likes = t('hub.state.draws', { left: Math.max(0, likes.earned - likes.used) });
  if (invite) {
    const earned = invite.invitations.reduce((sum, i) => sum + BigInt(i.rewardMinor ?? '0'), 0n);
    status.invite = (
      <Lines
        lines={[
          t('hub.state.invited', { friends: invite.invitations.length, earned: amount(earned, invite.asset) }),
          t('hub.state.inviteRule', {
            reward: amount(invite.rewardMinor, invite.asset),
            minimum: amount(invite.qualifyingMinor, invite.asset),
          }),
        ]}
      />
    );
  }
  return status;
}

/** The texts are this remote's: hub.* and entries.<key>.* in its namespace; today's state when signed in. */
export default function HubScreen() {
  const status = useEntryStatus(useHubState());
  return (
    <HubList
      namespace={NAMESPACE}
      testId="rewards-hub"
      entries={HUB_ENTRIES}
      available={AVAILABLE}
      buildId={__BUILD_ID__}
      status={status}
    />
  );
}
