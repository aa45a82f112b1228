import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { Segmented } from 'antd-mobile';
import { NAMESPACE } from '../../i18n.ts';
import * as styles from './trade-switch.module.css';

/** The ways to trade in the convert tab, each at its own path. */
const MODES = [
  { value: 'convert', path: '/convert', titleKey: 'convert.title' },
  { value: 'exchange', path: '/exchange', titleKey: 'exchange.title' },
] as const;

export type TradeMode = (typeof MODES)[number]['value'];

/** Convert | Exchange at the top of the convert tab: one entry to both, switching in place. */
export function TradeSwitch({ current }: { current: TradeMode }) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <nav className={styles.switch} aria-label={t('trade.label')} data-testid="trade-switch">
      <Segmented
        block
        value={current}
        options={MODES.map((mode) => ({
          value: mode.value,
          label: <span data-testid={`trade-switch-${mode.value}`}>{t(mode.titleKey)}</span>,
        }))}
        onChange={(value) => {
          const mode = MODES.find((m) => m.value === value);
          if (mode && mode.value !== current) void navigate(mode.path, { replace: true });
        }}
      />
    </nav>
  );
}
