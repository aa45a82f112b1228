import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { List, Tag } from 'antd-mobile';
import { Page } from '../page/index.ts';
import './hub-list.css';

export interface HubListEntry {
  /** Stable id of the entry: its texts are `entries.${key}.title|description`, its row's test id `hub-entry-${key}`. */
  key: string;
  /** The route the entry opens. */
  path: string;
}

export interface HubListProps {
  /**
   * The calling remote's i18n namespace. It holds `hub.title`, `hub.comingSoon`,
   * `hub.build` (with {{build}}) and `entries.<key>.title|description` for every entry.
   */
  namespace: string;
  /** Test id of the screen root, e.g. "rewards-hub". */
  testId: string;
  entries: readonly HubListEntry[];
  /** Paths whose screens exist in the remote's build; the other entries are disabled and marked coming soon. */
  available: ReadonlySet<string>;
  /** The remote's own build id (its __BUILD_ID__, not the host's). */
  buildId: string;
}

/** A remote's landing screen: its title, a list of the features it leads to, and its build id. */
export function HubList({ namespace, testId, entries, available, buildId }: HubListProps) {
  // The remote's own namespace (hub.*, entries.*), not shared-ui's: named apart from shared-ui's `t`.
  const { t: tRemote } = useTranslation(namespace);
  const navigate = useNavigate();
  return (
    // The app's one page chrome: the title in the nav bar (a hub is a tab's root: no back), lists edge to edge.
    <div className="cw-hub-list" data-testid={testId}>
      <Page title={tRemote('hub.title')} back={false} bodyClassName="cw-hub-list__body">
        <List>
          {entries.map((entry) => {
            const open = available.has(entry.path);
            return (
              <List.Item
                key={entry.key}
                data-testid={`hub-entry-${entry.key}`}
                description={tRemote(`entries.${entry.key}.description`)}
                // Not yet built: readable (its tag says why), announced as unavailable, not clickable.
                aria-disabled={!open}
                arrowIcon={open ? undefined : false}
                extra={open ? undefined : <Tag color="default">{tRemote('hub.comingSoon')}</Tag>}
                onClick={open ? () => navigate(entry.path) : undefined}
              >
                {tRemote(`entries.${entry.key}.title`)}
              </List.Item>
            );
          })}
        </List>
        <p className="build-id cw-hub-list__build" data-testid="build-id">
          {tRemote('hub.build', { build: buildId })}
        </p>
      </Page>
    </div>
  );
}
