import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { Fragment } from 'react';
import { NAMESPACE } from '../i18n.ts';
import * as styles from './trade-switch.module.css';

/** The ways to trade in the convert tab, each at its own path. */
const MODES = [
  { value: 'convert', path: '/convert', titleKey: 'convert.title' },
  { value: 'exchange', path: '/exchange', titleKey: 'exchange.title' },
  { value: 'buySell', path: '/buySell', titleKey: 'ramp.switch' },
] as const;

/** "Comprar/Vender" may wrap after its slash on a narrow screen (a slash is no break opportunity by itself). */
function breakAfterSlashes(label: string) {
  const parts = label.split('/');
  return parts.map((part, i) => (
    <Fragment key={i}>
      {part}
      {i < parts.length - 1 ? (
        <>
          /<wbr />
        </>
      ) : null}
    </Fragment>
  ));
}

export type TradeMode = (typeof MODES)[number]['value'];

/**
 * Convert | Exchange | Buy/Sell at the top of the convert tab: one entry to each, a segmented switch of
 * links (the current one marked with aria-current) that replaces the screen in place.
 */
export function TradeSwitch({ current }: { current: TradeMode }) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <nav className={styles.switch} aria-label={t('trade.label')} data-testid="trade-switch">
      {MODES.map((mode) => (
        <button
          key={mode.value}
          type="button"
          className={mode.value === current ? `${styles.segment} ${styles.current}` : styles.segment}
          aria-current={mode.value === current ? 'page' : undefined}
          data-testid={`trade-switch-${mode.value}`}
          onClick={() => {
            if (mode.value !== current) void navigate(mode.path, { replace: true });
          }}
        >
          {breakAfterSlashes(t(mode.titleKey))}
        </button>
      ))}
    </nav>
  );
}
