import { useTranslation } from '@cw/shared-state/i18n';
import { Tag } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import type { OrderStatus } from '../api/exchange-api.ts';

const STATUS_KEYS: Record<OrderStatus, string> = {
  new: 'exchange.status.new',
  waiting: 'exchange.status.waiting',
  confirming: 'exchange.status.confirming',
  exchanging: 'exchange.status.exchanging',
  sending: 'exchange.status.sending',
  completed: 'exchange.status.completed',
  expired: 'exchange.status.expired',
  refunded: 'exchange.status.refunded',
  failed: 'exchange.status.failed',
  suspended: 'exchange.status.suspended',
};

const COLORS: Partial<Record<OrderStatus, string>> = {
  completed: 'success',
  expired: 'default',
  refunded: 'warning',
  failed: 'danger',
  suspended: 'danger',
};

export function StatusTag({ status }: { status: OrderStatus }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <Tag color={COLORS[status] ?? 'primary'} data-testid="exchange-status" data-status={status}>
      {t(STATUS_KEYS[status])}
    </Tag>
  );
}
