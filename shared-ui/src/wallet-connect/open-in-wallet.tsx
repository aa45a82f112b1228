import { COPY_LINK_WALLETS, openInWalletLinks } from '@cw/shared-state/web3';
import { Button, List } from 'antd-mobile';
import { copyText } from '../clipboard/index.ts';
import { useUiTranslation } from '../i18n/index.ts';

/**
 * A phone browser with no wallet: open this very page (same screen, same network and coin) inside a
 * wallet app's own browser, where its provider is injected. Plain links: the navigation happens in the
 * tap itself (iOS Safari blocks one started after an await). Wallets with no documented link: copy the
 * page's link and paste it in the wallet's browser.
 */
export function OpenInWallet() {
  const { t } = useUiTranslation();
  const page = typeof window === 'undefined' ? '' : window.location.href;
  if (!page) return null;
  return (
    <div data-testid="open-in-wallet">
      <List header={t('web3.openIn.title')}>
        {openInWalletLinks(page).map(({ link, href }) => (
          <List.Item
            key={link.id}
            prefix={
              <span className="cw-wallet__logo cw-wallet__logo--mono" style={{ background: link.color }} aria-hidden>
                {link.name.slice(0, 1)}
              </span>
            }
            description={link.customScheme ? t('web3.openIn.ifInstalled') : undefined}
            extra={
              <a href={href} className="cw-wallet__install" data-testid={`open-in-${link.id}`} rel="noopener">
                {t('web3.openIn.open')}
              </a>
            }
          >
            {t('web3.openIn.wallet', { wallet: link.name })}
          </List.Item>
        ))}
      </List>
      <section className="cw-wallet__card">
        <span className="cw-wallet__muted">{t('web3.openIn.copyHint', { wallets: COPY_LINK_WALLETS.join(', ') })}</span>
        <Button block fill="outline" color="primary" data-testid="open-in-copy" onClick={() => void copyText(page)}>
          {t('web3.openIn.copy')}
        </Button>
      </section>
    </div>
  );
}
