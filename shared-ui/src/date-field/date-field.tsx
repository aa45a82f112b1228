import { DEFAULT_LANGUAGE, isLanguage } from '@cw/shared-state/i18n';
import { DatePicker } from 'antd-mobile';
import { CloseCircleFill } from 'antd-mobile-icons';
import { useState } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import './date-field.css';

export interface DateFieldProps {
  /** A calendar day, `yyyy-mm-dd`, or '' for none. */
  value: string;
  onChange: (value: string) => void;
  label: string;
  /** Shown when no day is chosen. */
  placeholder: string;
  testId: string;
  min?: Date;
  max?: Date;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function toDate(value: string): Date | null {
  const match = DAY.exec(value);
  return match ? new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : null;
}

function toDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * A calendar day chosen with antd-mobile's wheel date picker, shown and picked in the UI language
 * ("2026年3月2日", "Mar 2, 2026", "2 mar 2026") instead of the browser's own date input, which
 * follows the system locale ("mm/dd/yyyy" in a Chinese UI). The value stays `yyyy-mm-dd`.
 */
export function DateField({ value, onChange, label, placeholder, testId, min, max }: DateFieldProps) {
  const { t, i18n } = useUiTranslation();
  const [open, setOpen] = useState(false);
  const locale = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const date = toDate(value);
  const shown = date ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium' }).format(date) : placeholder;
  const monthName = new Intl.DateTimeFormat(locale, { month: 'short' });
  const renderLabel = (type: string, data: number) => {
    if (type === 'month') return monthName.format(new Date(2000, data - 1, 1));
    if (type === 'year') return t('date.year', { year: data });
    if (type === 'day') return t('date.day', { day: data });
    return String(data);
  };
  return (
    <div className="cw-date-field">
      <button
        type="button"
        className={`cw-date-field__button${date ? '' : ' cw-date-field__button--empty'}`}
        aria-label={`${label}: ${shown}`}
        data-testid={testId}
        data-value={value}
        onClick={() => setOpen(true)}
      >
        {shown}
      </button>
      {date ? (
        <button
          type="button"
          className="cw-date-field__clear"
          aria-label={t('date.clear', { label })}
          data-testid={`${testId}-clear`}
          onClick={() => onChange('')}
        >
          <CloseCircleFill aria-hidden />
        </button>
      ) : null}
      <DatePicker
        visible={open}
        title={label}
        precision="day"
        value={date ?? max ?? new Date()}
        {...(min ? { min } : {})}
        {...(max ? { max } : {})}
        confirmText={t('common.confirm')}
        cancelText={t('common.cancel')}
        renderLabel={renderLabel}
        onClose={() => setOpen(false)}
        onConfirm={(picked) => onChange(toDay(picked))}
      />
    </div>
  );
}
