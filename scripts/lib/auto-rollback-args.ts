import { DEFAULT_AUTO_ROLLBACK } from './canary.ts';
import type { AutoRollbackSettings } from './registry.ts';

/** The flags `deploy --canary` and `canary start` share: --auto-rollback [--margin <points>] [--min-loads <n>]. */
export const AUTO_ROLLBACK_OPTIONS = {
  'auto-rollback': { type: 'boolean' },
  margin: { type: 'string' },
  'min-loads': { type: 'string' },
} as const;

export const AUTO_ROLLBACK_USAGE = '[--auto-rollback [--margin <points, default 5>] [--min-loads <n, default 20>]]';

export function autoRollbackOf(values: {
  'auto-rollback'?: boolean;
  margin?: string;
  'min-loads'?: string;
}): AutoRollbackSettings | undefined {
  if (!values['auto-rollback']) {
    if (values.margin !== undefined || values['min-loads'] !== undefined) {
      throw new RangeError('--margin and --min-loads go with --auto-rollback');
    }
    return undefined;
  }
  return {
    marginPct: values.margin === undefined ? DEFAULT_AUTO_ROLLBACK.marginPct : Number(values.margin),
    minLoads: values['min-loads'] === undefined ? DEFAULT_AUTO_ROLLBACK.minLoads : Number(values['min-loads']),
  };
}
