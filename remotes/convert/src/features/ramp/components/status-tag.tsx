import { useTranslation } from '@cw/shared-state/i18n';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { RampState } from '../api/ramp-api.ts';

const COLORS: Partial<Record<RampState, string>> = {
  completed: 'success',
  expired: 'default',
  refunded: 'warning',
  refund_pending: 'warning',
  failed: 'danger',
};

export function RampStatusTag({ state }: { state: RampState }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <Tag color={COLORS[state] ?? 'primary'} data-testid="ramp-status" data-status={state}>
      {t(`ramp.state.${state}`)}
    </Tag>
  );
}
