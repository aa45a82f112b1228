import type { ReactNode } from 'react';
import * as ui from './wallet-page.module.css';

interface DetailRow {
  label: string;
  value: ReactNode;
  testId?: string;
  /** Monospace and broken anywhere: for addresses, hashes and ids, not for words or times. */
  mono?: boolean;
}

/** Label/value rows of a details card; rows with an empty value are left out. */
export function DetailRows({ rows }: { rows: DetailRow[] }) {
  return (
    <dl className={`${ui.card} ${ui.field}`} style={{ margin: 0 }}>
      {rows
        .filter((row) => row.value !== null && row.value !== undefined && row.value !== '')
        .map((row) => (
          <div key={row.label} className={ui.row} style={{ alignItems: 'baseline' }}>
            <dt className={ui.label}>{row.label}</dt>
            <dd
              className={row.mono ? ui.mono : ui.value}
              style={{ margin: 0, textAlign: 'right', maxWidth: '65%' }}
              data-testid={row.testId}
            >
              {row.value}
            </dd>
          </div>
        ))}
    </dl>
  );
}
