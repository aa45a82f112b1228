import { isApiError } from '@cw/shared-state/api';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { Page, PageLink } from '@cw/shared-ui/page';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { toast } from '@cw/shared-ui/toast';
import { Button, Checkbox } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import { TradeSwitch } from '../../../lib/trade-switch.tsx';
import { usePlaceOrderMutation } from '../api/exchange-queries.ts';
import { type CataloguePairs, useCataloguePairs } from '../hooks/use-catalogue-pairs.ts';
import { useExchangeForm } from '../hooks/use-exchange-form.ts';
import { AddressSection } from './address-section.tsx';
import { ReceiveSection, SendSection } from './pair-sections.tsx';
import { RateSection } from './rate-section.tsx';

/** The form once the pairs are known: sections, terms, and placing the order at the shown quote. */
function ExchangeForm({ pairs }: { pairs: CataloguePairs }) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const form = useExchangeForm(pairs);
  const place = usePlaceOrderMutation();
  const { order, quote, estimate } = form;

  function submit() {
    if (order === null || place.isPending) return;
    place.mutate(
      { order, ...(quote ? { shown: quote } : {}) },
      {
        onSuccess: (placed) => void navigate(`/exchange/order?id=${placed.id}`),
        onError: (error) => {
          // A lock that ran out: show the new quote before anything is placed.
          if (isApiError(error) && error.code === 'EXCHANGE_RATE_EXPIRED') void estimate.refetch();
          toast.fail(errorMessage(error));
        },
      },
    );
  }

  return (
    <div className={ui.body} data-testid="exchange-screen">
      <TradeSwitch current="exchange" />
      <SendSection form={form} pairs={pairs} />
      <ReceiveSection form={form} pairs={pairs} />
      <RateSection form={form} pairs={pairs} />
      <AddressSection form={form} pairs={pairs} />
      <Checkbox data-testid="exchange-terms" checked={form.addresses.terms} onChange={form.set.terms}>
        {t('exchange.terms')}
      </Checkbox>
      <Button
        block
        color="primary"
        size="large"
        data-testid="exchange-submit"
        disabled={order === null || place.isPending}
        loading={place.isPending}
        onClick={submit}
      >
        {t('exchange.submit')}
      </Button>
    </div>
  );
}

/** /exchange: what to send and receive, the amount, rate type, addresses and terms; places an order. */
export default function ExchangeScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const { pairs, isError, refetch } = useCataloguePairs();
  const records = (
    <PageLink data-testid="exchange-records" onClick={() => void navigate('/exchange/history')}>
      {t('exchange.records')}
    </PageLink>
  );
  let body = isError ? <ErrorState onRetry={() => void refetch()} /> : <LoadingState />;
  if (pairs) body = <ExchangeForm pairs={pairs} />;
  return (
    <Page title={t('exchange.title')} right={records}>
      {body}
    </Page>
  );
}
