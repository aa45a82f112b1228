import type { paths } from '@cw/shared-state/api';

export type ArchiveFigures =
  paths['/api/ops/dashboard']['get']['responses'][200]['content']['application/json']['archive'];

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

/** An age in seconds as the largest whole unit an operator reads at a glance. */
export function age(seconds: number | null): string {
  if (seconds === null) return '';
  if (seconds < 120) return `${seconds} s ago`;
  if (seconds < 7_200) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 172_800) return `${Math.floor(seconds / 3_600)} h ago`;
  return `${Math.floor(seconds / 86_400)} days ago`;
}

const WARNING_TEXT: Record<ArchiveFigures['warnings'][number], (a: ArchiveFigures) => string> = {
  archive_behind: (a) =>
    `WAL segments have waited for the archive more than ${a.warnAfterSeconds / 60} minutes since its last success`,
  archive_failing: () => 'The last archive attempt failed (see pg_archive_failed_total and the server log)',
  s3_behind: (a) => `Segments have waited for the S3 bucket more than ${a.warnAfterSeconds / 60} minutes`,
  base_backup_old: (a) => `No base backup in the last ${a.baseBackupWarnAfterHours} hours`,
};

const STATE_TEXT: Record<ArchiveFigures['state'], string> = {
  ok: 'Archiving',
  warning: 'WARNING',
  off: 'Archiving is off',
  unknown: 'Unknown (the archiver could not be read)',
};

/** Issue 34: the WAL archive's lag beside the money figures (the same figures as /metrics' pg_archive_*). */
export function ArchiveCard({ archive: a }: { archive: ArchiveFigures }) {
  const base = a.lastBaseBackup;
  return (
    <section className="card" aria-labelledby="dash-archive" data-testid="ops-dash-archive" data-state={a.state}>
      <h2 id="dash-archive">Database backups (WAL archive)</h2>
      <p>
        <strong>{STATE_TEXT[a.state]}</strong>
      </p>
      {a.warnings.length > 0 ? (
        <div role="alert">
          <ul className="problem" data-testid="ops-dash-archive-warnings">
            {a.warnings.map((w) => (
              <li key={w}>{WARNING_TEXT[w](a)}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <p data-testid="ops-dash-archive-wal">
        Last archived segment: {a.lastArchivedWal ? <code>{a.lastArchivedWal}</code> : 'none'}{' '}
        <span className="muted">
          {when(a.lastArchivedAt)} {age(a.lastArchivedAgeSeconds)}
        </span>
        ; segments waiting: {a.waitingSegments ?? '?'}; failed attempts: {a.failedCount ?? '?'}
      </p>
      <p data-testid="ops-dash-archive-base">
        Last base backup:{' '}
        {base ? (
          <>
            <code>{base.id}</code> {when(base.finishedAt)} <span className="muted">{age(base.ageSeconds)}</span>
          </>
        ) : (
          'none'
        )}
      </p>
      <p data-testid="ops-dash-archive-s3">
        S3 copy:{' '}
        {a.s3
          ? `${a.s3.waitingSegments} segments waiting, last complete ${when(a.s3.lastSuccessAt)}` +
            (a.s3.lagSeconds ? ` (behind for ${age(a.s3.lagSeconds).replace(' ago', '')})` : '') +
            (a.s3.failedRuns ? `; ${a.s3.failedRuns} failed runs, last: ${a.s3.lastError ?? ''}` : '')
          : 'not configured'}
      </p>
    </section>
  );
}
