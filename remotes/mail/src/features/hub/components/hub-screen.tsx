import { HubList } from '@cw/shared-ui/hub-list';
import { NAMESPACE } from '../../../i18n.ts';
import { useHubCounts } from '../api/hub-counts.ts';
import { HUB_ENTRIES } from '../utils/hub-entries.ts';

/** Routes whose screens exist in this build; other entries are announced as coming soon. */
const AVAILABLE: ReadonlySet<string> = new Set<string>([
  '/sendemails',
  '/sendHistory',
  '/notice',
  '/supportMail',
  '/chat',
  '/support',
]);

/** The texts are this remote's: hub.* and entries.<key>.* in its namespace; unread counts when signed in. */
export default function HubScreen() {
  const counts = useHubCounts();
  return (
    <HubList
      namespace={NAMESPACE}
      testId="mail-hub"
      entries={HUB_ENTRIES}
      available={AVAILABLE}
      buildId={__BUILD_ID__}
      counts={counts}
    />
  );
}
