import { useTranslation } from '@cw/shared-state/i18n';
import { useEffect, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/rewards.module.css';
import type { SignStatus } from '../api/sign.ts';
import { localTimeOf, untilNextDay } from '../utils/countdown.ts';
import * as css from './sign.module.css';

/** Re-render every 30 s so the countdown stays current. */
function useNow(periodMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}

/**
 * The 7-day strip as the server's records say (UTC days), the streak, and when the next check-in
 * opens: in hours and minutes, and as the reader's local time (users lose streaks to midnight and
 * time-zone surprises).
 */
export function StreakCard({ status }: { status: SignStatus }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const now = useNow();
  const { hours, minutes } = untilNextDay(status.nextDayAt, now);
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'narrow', timeZone: 'UTC' });
  return (
    <section className={ui.card} data-testid="streak-card">
      <div className={ui.row}>
        <span className={ui.label}>{t('sign.streak')}</span>
        <span className={ui.strong} data-testid="streak-days">
          {t('sign.days', { count: status.streak })}
        </span>
      </div>
      <ol className={css.strip} aria-label={t('sign.week')}>
        {status.week.map((d) => (
          <li
            key={d.day}
            className={`${css.day} ${d.signed ? css.signed : ''} ${d.day === status.today ? css.today : ''}`}
            data-testid="streak-day"
            data-signed={d.signed}
            aria-label={`${d.day}: ${d.signed ? t('sign.signedDay') : t('sign.missedDay')}`}
          >
            <span>{weekday.format(new Date(`${d.day}T12:00:00Z`))}</span>
            <span aria-hidden>{d.signed ? '✓' : '·'}</span>
          </li>
        ))}
      </ol>
      <p className={ui.muted} data-testid="next-check-in">
        {status.todayState === 'none'
          ? t('sign.openUntil', { hours, minutes, time: localTimeOf(status.nextDayAt, i18n.language) })
          : t('sign.nextIn', { hours, minutes, time: localTimeOf(status.nextDayAt, i18n.language) })}
      </p>
    </section>
  );
}
