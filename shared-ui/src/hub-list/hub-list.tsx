import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { Badge, List, Tag } from 'antd-mobile';
import type { ReactNode } from 'react';
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
  /**
   * The remote's own build id (its __BUILD_ID__, not the host's). Not shown to the user (the version
   * line lives in settings/about); kept in the page, hidden, for operators and the deploy checks.
   */
  buildId: string;
  /** Today's state of an entry, by key, shown under its description (e.g. "3-day streak, checked in"). */
  status?: Readonly<Partial<Record<string, ReactNode>>>;
  /** A count to badge an entry with, by key (unread mail); 0 or absent shows none. */
  counts?: Readonly<Partial<Record<string, number>>>;
  /** Shown above the list (e.g. a summary of today's state). */
  header?: ReactNode;
}

/** The largest count a badge spells out; more reads "99+". */
const BADGE_MAX = 99;

function EntryDescription({ text, status, testId }: { text: string; status: ReactNode; testId: string }) {
  if (status === undefined || status === null) return text;
  return (
    <>
      <span className="cw-hub-list__description">{text}</span>
      <span className="cw-hub-list__status" data-testid={testId}>
        {status}
      </span>
    </>
  );
}

/** A remote's landing screen: its title, a list of the features it leads to with their state today. */
export function HubList({ namespace, testId, entries, available, buildId, status, counts, header }: HubListProps) {
  // The remote's own namespace (hub.*, entries.*), not shared-ui's: named apart from shared-ui's `t`.
  const { t: tRemote } = useTranslation(namespace);
  const navigate = useNavigate();
  return (
    // The app's one page chrome: the title in the nav bar (a hub is a tab's root: no back), lists edge to edge.
    <div className="cw-hub-list" data-testid={testId} data-build-id={buildId}>
      <Page title={tRemote('hub.title')} back={false} bodyClassName="cw-hub-list__body">
        {header}
        <List>
          {entries.map((entry) => {
            const open = available.has(entry.path);
            const count = counts?.[entry.key] ?? 0;
            return (
              <List.Item
                key={entry.key}
                data-testid={`hub-entry-${entry.key}`}
                description={
                  <EntryDescription
                    text={tRemote(`entries.${entry.key}.description`)}
                    status={status?.[entry.key]}
                    testId={`hub-status-${entry.key}`}
                  />
                }
                // Not yet built: readable (its tag says why), announced as unavailable, not clickable.
                aria-disabled={!open}
                arrowIcon={open ? undefined : false}
                extra={
                  open ? (
                    count > 0 ? (
                      <Badge
                        content={count > BADGE_MAX ? `${BADGE_MAX}+` : String(count)}
                        data-testid={`hub-count-${entry.key}`}
                      />
                    ) : undefined
                  ) : (
                    <Tag color="default">{tRemote('hub.comingSoon')}</Tag>
                  )
                }
                onClick={open ? () => navigate(entry.path) : undefined}
              >
                {tRemote(`entries.${entry.key}.title`)}
              </List.Item>
            );
          })}
        </List>
        <span hidden data-testid="build-id">
          {buildId}
        </span>
      </Page>
    </div>
  );
}
