import { useNavigate } from '@cw/shared-state/router';
import { List, Tag } from 'antd-mobile';
import type { ReactNode } from 'react';

export interface HubListEntry {
  /** Stable id of the entry: the row's test id is `hub-entry-${key}`. */
  key: string;
  /** The route the entry opens. */
  path: string;
  title: ReactNode;
  description: ReactNode;
  /** False while the entry's screen is not in this build: the row is disabled and marked coming soon. */
  available: boolean;
}

export interface HubListProps {
  /** Test id of the screen root, e.g. "rewards-hub". */
  testId: string;
  /** Texts already translated by the calling remote. */
  title: ReactNode;
  comingSoon: ReactNode;
  /** The build line under the list (the remote's own build id). */
  build: ReactNode;
  entries: readonly HubListEntry[];
}

/** A remote's landing screen: its title, a list of the features it leads to, and its build id. */
export function HubList({ testId, title, comingSoon, build, entries }: HubListProps) {
  const navigate = useNavigate();
  return (
    <main className="screen" data-testid={testId}>
      <h1>{title}</h1>
      <List>
        {entries.map((entry) => (
          <List.Item
            key={entry.key}
            data-testid={`hub-entry-${entry.key}`}
            description={entry.description}
            disabled={!entry.available}
            extra={entry.available ? undefined : <Tag color="default">{comingSoon}</Tag>}
            onClick={entry.available ? () => navigate(entry.path) : undefined}
          >
            {entry.title}
          </List.Item>
        ))}
      </List>
      <p className="build-id" data-testid="build-id">
        {build}
      </p>
    </main>
  );
}
