import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { PageLink } from '@cw/shared-ui/page';
import { QuickBuyButton } from '@cw/shared-ui/quick-buy';
import { ErrorState, LoadingState } from '@cw/shared-ui/states';
import { Button } from 'antd-mobile';
import type { ReactNode } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { TradeSwitch } from '../../../lib/trade-switch.tsx';
import { useAcceptFlow } from '../hooks/use-accept-flow.ts';
import { useConvertCoins } from '../hooks/use-convert-coins.ts';
import { useConvertForm } from '../hooks/use-convert-form.ts';
import type { ConvertCoinInfo } from '../utils/coins.ts';
import { GetCard, GiveCard } from './amount-cards.tsx';
import * as styles from './convert-page.module.css';
import { ConvertPage } from './convert-page.tsx';
import { ExpiredDialog } from './expired-dialog.tsx';
import { PreviewSheet } from './preview-sheet.tsx';
import { QuoteDetails } from './quote-details.tsx';

/** The convert form, once the catalogue gave the coins and their decimals. */
function ConvertForm({ app, coins }: { app: boolean; coins: readonly ConvertCoinInfo[] }) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const form = useConvertForm(coins);
  const flow = useAcceptFlow(form.setShown);
  const { from, to, quote } = form;
  const pick = (side: 'from' | 'to') =>
    void navigate(`/convert/selectCurrency?side=${side}&from=${from}&to=${to}${app ? '&app=1' : ''}`);
  return (
    <HubPage app={app}>
      <GiveCard form={form} coins={coins} onPick={pick} />
      <button
        type="button"
        className={styles.swap}
        onClick={() => form.go({ from: to, to: from })}
        aria-label={t('convert.swap')}
        data-testid="convert-swap"
      >
        ⇅
      </button>
      <GetCard form={form} coins={coins} onPick={pick} />
      <QuoteDetails form={form} coins={coins} />
      {form.status === 'anonymous' ? (
        <Button block color="primary" size="large" onClick={() => void navigate('/login')} data-testid="convert-login">
          {t('convert.loginFirst')}
        </Button>
      ) : (
        <Button
          block
          color="primary"
          size="large"
          loading={flow.busy}
          disabled={!quote || form.overBalance || flow.busy}
          onClick={() => flow.openPreview(quote)}
          data-testid="convert-submit"
        >
          {t('convert.submit')}
        </Button>
      )}
      {/* The build id is for operators and deploy checks, not a line on a user's screen (settings/about shows it). */}
      <span hidden data-testid="build-id">
        {__BUILD_ID__}
      </span>
      <PreviewSheet
        quote={flow.preview}
        busy={flow.busy}
        coins={coins}
        onConfirm={flow.accept}
        onCancel={flow.closePreview}
      />
      <ExpiredDialog
        quote={flow.requote}
        busy={flow.busy}
        onAccept={flow.accept}
        coins={coins}
        onCancel={flow.dismissRequote}
      />
    </HubPage>
  );
}

/** The hub's page: title, back arrow (not in the app variant) and the link to the records. */
function HubPage({ app, children }: { app: boolean; children: ReactNode }) {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  const history = (
    <PageLink onClick={() => void navigate('/convert/history')} data-testid="convert-history-link">
      {t('convert.records')}
    </PageLink>
  );
  return (
    <ConvertPage
      title={t('convert.title')}
      testId="convert-hub"
      {...(app ? {} : { parent: '/coinTopup' })}
      right={history}
    >
      {app ? null : <TradeSwitch current="convert" />}
      <QuickBuyButton testId="convert-quick-buy" />
      {children}
    </ConvertPage>
  );
}

/**
 * /convert (and /convert/indexToApp, the app's variant without a back arrow): give one coin, get
 * another. The quote shows rate, fee, amount received, limits and a countdown; accepting an
 * expired one brings the "rate expired and updated" dialog with the new rate.
 * Amounts need the coins' decimals, so the form waits for the catalogue (no amount in wrong digits).
 */
function ConvertScreen({ app = false }: { app?: boolean }) {
  const { coins, isError, refetch } = useConvertCoins();
  if (coins) return <ConvertForm app={app} coins={coins} />;
  return <HubPage app={app}>{isError ? <ErrorState onRetry={() => void refetch()} /> : <LoadingState />}</HubPage>;
}

export default ConvertScreen;
