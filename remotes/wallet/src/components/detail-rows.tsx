import type { ReactNode } from 'react';
import * as ui from './wallet-page.module.css';

/** Label/value rows of a details card; rows with an empty value are left out. */
export function DetailRows({ rows }: { rows: { label: string; value: ReactNode; testId?: string }[] }) {
  return (
    <dl className={`${ui.card} ${ui.field}`} style={{ margin: 0 }}>
      {rows
        .filter((row) => row.value !== null && row.value !== undefined && row.value !== '')
        .map((row) => (
          <div key={row.label} className={ui.row} style={{ alignItems: 'flex-start' }}>
            <dt className={ui.label}>{row.label}</dt>
            <dd className={ui.mono} style={{ margin: 0, textAlign: 'right', maxWidth: '65%' }} data-testid={row.testId}>
              {row.value}
            </dd>
          </div>
        ))}
    </dl>
  );
}
