import { HubList } from '@cw/shared-ui/hub-list';
import { NAMESPACE } from '../../../i18n.ts';
import { HUB_ENTRIES } from '../utils/hub-entries.ts';

/** Every entry has its screen in this build. */
const AVAILABLE: ReadonlySet<string> = new Set<string>(HUB_ENTRIES.map((e) => e.path));

/** The texts are this remote's: hub.* and entries.<key>.* in its namespace. */
export default function HubScreen() {
  return (
    <HubList
      namespace={NAMESPACE}
      testId="rewards-hub"
      entries={HUB_ENTRIES}
      available={AVAILABLE}
      buildId={__BUILD_ID__}
    />
  );
}
