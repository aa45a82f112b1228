import { useTranslation } from '@cw/shared-state/i18n';
import { useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';

const MINUTE_MS = 60_000;

/** Whole hours and minutes left until `untilMs`, rounded up to the minute (never 0 while it runs). */
export function holdLeft(untilMs: number, nowMs: number): { hours: number; minutes: number } | null {
  const left = untilMs - nowMs;
  if (left <= 0) return null;
  const total = Math.ceil(left / MINUTE_MS);
  return { hours: Math.floor(total / 60), minutes: total % 60 };
}

/**
 * An entry's standing on the withdrawal allowlist: not trusted, trusted and usable, or trusted with
 * the countdown to the end of its hold (redrawn every minute, and once it ends).
 */
export function TrustLine({ trusted, usableAt }: { trusted: boolean; usableAt: string | null }) {
  const { t } = useTranslation(NAMESPACE);
  const [now, setNow] = useState(() => Date.now());
  const until = usableAt ? Date.parse(usableAt) : Number.NaN;
  const left = Number.isNaN(until) ? null : holdLeft(until, now);
  useEffect(() => {
    if (!left) return;
    const timer = setInterval(() => setNow(Date.now()), Math.min(MINUTE_MS, Math.max(until - Date.now(), 1000)));
    return () => clearInterval(timer);
  }, [left, until]);
  if (!trusted) return null;
  return (
    <span className={ui.muted} data-testid="address-book-trust">
      {left
        ? t('addressBook.trust.held', {
            hours: left.hours,
            minutes: left.minutes,
            at: new Date(until).toLocaleString(),
          })
        : t('addressBook.trust.usable')}
    </span>
  );
}
