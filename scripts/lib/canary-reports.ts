import { createDb } from '../../server/src/db/create-db.ts';
import { countsByVersion, type VersionCounts } from '../../server/src/modules/client-events/repository.ts';

/** Reports older than this are not shown by `canary status` (the canary's start is used when known). */
const STATUS_WINDOW_MS = 24 * 3_600_000;

/**
 * Loads and failures per version of a remote, from the hosts' reports (POST /api/client-events),
 * since the canary started (or the last 24 h). Null without DATABASE_URL: status then shows the
 * registry only.
 */
export async function loadReports(remote: string, startedAt: string | undefined): Promise<VersionCounts[] | null> {
  const url = process.env.DATABASE_URL;
  if (!url) return null;
  const db = createDb(url, { max: 1 });
  try {
    const started = startedAt ? Date.parse(startedAt) : Number.NaN;
    return await countsByVersion(
      db,
      remote,
      new Date(Number.isFinite(started) ? started : Date.now() - STATUS_WINDOW_MS),
    );
  } finally {
    await db.destroy();
  }
}

export function formatReports(rows: VersionCounts[]): string[] {
  if (rows.length === 0) return ['no load reports yet'];
  return rows.map((r) => {
    const attempts = r.loads + r.failures;
    const rate = attempts === 0 ? 0 : (100 * r.failures) / attempts;
    const codes = Object.entries(r.codes)
      .map(([code, n]) => `${code} ${n}`)
      .join(', ');
    return `${r.version}: ${r.loads} loads, ${r.failures} failures (${rate.toFixed(1)} %)${codes ? ` [${codes}]` : ''}`;
  });
}
