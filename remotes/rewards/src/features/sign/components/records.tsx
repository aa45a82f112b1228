import { useCatalogue } from '@cw/shared-state/catalogue';
import { useTranslation } from '@cw/shared-state/i18n';
import { useAmountFormat } from '@cw/shared-state/money';
import { shortAddress } from '@cw/shared-state/web3';
import { EmptyState } from '@cw/shared-ui/states';
import { CapsuleTabs, List, Tag } from 'antd-mobile';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { formatDay, formatTime } from '../../../lib/format.ts';
import type { SignStatus } from '../api/sign.ts';

/** Sign records (reward, date, address, state) and claim records (date, address, status, delivery). */
export function Records({ status }: { status: SignStatus }) {
  const { t, i18n } = useTranslation(NAMESPACE);
  const format = useAmountFormat();
  const { view } = useCatalogue();
  const [tab, setTab] = useState('signs');
  const amount = (minor: string, asset: string) =>
    view ? `${format.display(minor, view.displayOf(asset))} ${asset}` : '…';
  return (
    <section data-testid="sign-records">
      <CapsuleTabs activeKey={tab} onChange={setTab}>
        <CapsuleTabs.Tab key="signs" title={t('sign.signRecords')} />
        <CapsuleTabs.Tab key="claims" title={t('sign.claimRecords')} />
      </CapsuleTabs>
      {tab === 'signs' ? (
        status.records.length === 0 ? (
          <EmptyState />
        ) : (
          <List>
            {status.records.map((r) => (
              <List.Item
                key={r.id}
                data-testid="sign-record"
                description={`${shortAddress(r.address)} · ${formatTime(r.signedAt, i18n.language)}`}
                extra={
                  <Tag color={r.state === 'confirmed' ? 'success' : 'warning'} fill="outline">
                    {r.state === 'confirmed'
                      ? r.claimed
                        ? t('sign.stateClaimed')
                        : t('sign.stateUnclaimed')
                      : t('sign.stateSeen')}
                  </Tag>
                }
              >
                {formatDay(r.day, i18n.language)} · {r.state === 'confirmed' ? amount(r.rewardMinor, r.asset) : '…'}
              </List.Item>
            ))}
          </List>
        )
      ) : status.claims.length === 0 ? (
        <EmptyState />
      ) : (
        <List>
          {status.claims.map((c) => (
            <List.Item
              key={c.id}
              data-testid="claim-record"
              description={`${shortAddress(c.address)} · ${formatTime(c.claimedAt, i18n.language)}`}
              extra={
                <Tag color={c.delivered ? 'success' : 'default'} fill="outline">
                  {c.delivered ? t('sign.issued') : t('sign.notIssued')}
                </Tag>
              }
            >
              {t('sign.stateClaimed')} · {amount(c.amountMinor, c.asset)}
            </List.Item>
          ))}
        </List>
      )}
    </section>
  );
}
