import { useTranslation } from '@cw/shared-state/i18n';
import { ChipSelect } from '@cw/shared-ui/chip-select';
import { DateField } from '@cw/shared-ui/date-field';
import { NAMESPACE } from '../../../i18n.ts';
import { useCodeMessage } from '../../../lib/code-message.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import * as styles from './history-screen.module.css';

export interface DayRange {
  startDay: string;
  endDay: string;
}

interface Props {
  coins: string[];
  coin: string;
  onCoin: (coin: string) => void;
  days: DayRange;
  onDays: (days: DayRange) => void;
  invalid: boolean;
}

/** Coin chips and a from/to day range (an inverted range is said, and nothing is asked of the server). */
export function HistoryFilterSection({ coins, coin, onCoin, days, onDays, invalid }: Props) {
  const { t } = useTranslation(NAMESPACE);
  const codeMessage = useCodeMessage();
  const dayField = (which: keyof DayRange, label: string, testId: string) => (
    <div className={styles.date}>
      <span className={ui.label}>{label}</span>
      <DateField
        value={days[which]}
        onChange={(day) => onDays({ ...days, [which]: day })}
        label={label}
        placeholder={t('history.anyDay')}
        max={new Date()}
        testId={testId}
      />
    </div>
  );
  return (
    <section className={`${ui.card} ${ui.field}`}>
      <ChipSelect
        testId="history-coin"
        columns={5}
        options={[{ label: t('history.filter.all'), value: 'all' }, ...coins.map((c) => ({ label: c, value: c }))]}
        value={coin}
        onChange={onCoin}
      />
      <div className={styles.dates}>
        {dayField('startDay', t('history.from'), 'history-from')}
        {dayField('endDay', t('history.to'), 'history-to')}
      </div>
      {invalid && (
        <p className={ui.error} role="alert" data-testid="history-date-error">
          {codeMessage('DATE_RANGE_INVALID')}
        </p>
      )}
    </section>
  );
}
