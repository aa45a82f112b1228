import { useCatalogue } from '@cw/shared-state/catalogue';
import { useCodeMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { localizeDecimal, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { Page, PageLink } from '@cw/shared-ui/page';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { ErrorBlock } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/trade.module.css';
import { TradeSwitch } from '../../../lib/trade-switch.tsx';
import { type RampOptions, useAvailable, useRampOptions } from '../api/ramp-api.ts';
import { pairKey, type RampFormInit } from '../hooks/use-ramp-form.ts';
import { RampFormView } from './ramp-form-view.tsx';

/** ?side=buy&coin=USDT&amount=100.00 (quick buy) pre-fills the form; anything unknown is ignored. */
function initFrom(params: URLSearchParams, options: RampOptions, locale: string): RampFormInit {
  const side = params.get('side') === 'sell' ? 'sell' : 'buy';
  const coin = params.get('coin');
  const pair = options.pairs.find((p) => p.coin === coin) ?? options.pairs[0];
  const amount = params.get('amount') ?? '';
  return {
    side,
    pair: pair ? pairKey(pair) : '',
    amount: /^\d{1,12}(\.\d{1,2})?$/.test(amount) ? localizeDecimal(amount, locale, { grouping: false }) : '',
  };
}

/** /buySell: buy or sell crypto through the payment provider (Brazil and India only). */
export default function BuySellScreen() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const codeMessage = useCodeMessage();
  const [params] = useSearchParams();
  const format = useAmountFormat();
  const options = useRampOptions();
  const catalogue = useCatalogue();
  const balances = useAvailable();
  const records = (
    <PageLink data-testid="ramp-records" onClick={() => void navigate('/buySell/orders')}>
      {t('ramp.records')}
    </PageLink>
  );
  let body = <LoadingState />;
  if (options.isError || catalogue.isError) {
    body = <ErrorState onRetry={() => void Promise.all([options.refetch(), catalogue.refetch()])} />;
  } else if (options.data && !options.data.available) {
    body = (
      <div className={ui.body}>
        <TradeSwitch current="buySell" />
        <ErrorBlock
          status="disconnected"
          title={
            options.data.reason === 'country'
              ? codeMessage('RAMP_COUNTRY_UNSUPPORTED')
              : codeMessage('RAMP_PROVIDER_UNAVAILABLE')
          }
          description={options.data.reason === 'country' ? t('ramp.countryHint') : ''}
          data-testid="ramp-unavailable"
        />
      </div>
    );
  } else if (options.data && catalogue.data) {
    const init = initFrom(params, options.data, format.locale);
    body = (
      <RampFormView
        key={`${init.side}:${init.pair}:${init.amount}`}
        options={options.data}
        catalogue={catalogue.data}
        init={init}
        available={(coin) => balances.data?.get(coin) ?? null}
      />
    );
  }
  return (
    <Page title={t('ramp.title')} right={records}>
      {body}
    </Page>
  );
}
