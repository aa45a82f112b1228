import { useErrorMessage } from '@cw/shared-state/errors';
import { isMobileBrowser, WALLET_CATALOGUE, type WalletOption, type Web3Kit } from '@cw/shared-state/web3';
import { Button, List } from 'antd-mobile';
import { useState } from 'react';
import { useUiTranslation } from '../i18n/index.ts';
import { toast } from '../toast/index.ts';
import { OpenInWallet } from './open-in-wallet.tsx';

function WalletLogo({ name, icon, color }: { name: string; icon: string | null; color?: string }) {
  if (icon) return <img className="cw-wallet__logo" src={icon} alt="" width={36} height={36} />;
  return (
    <span className="cw-wallet__logo cw-wallet__logo--mono" style={{ background: color ?? '#1677ff' }} aria-hidden>
      {name.slice(0, 1)}
    </span>
  );
}

/**
 * The specification's wallet entries: wallets the browser announced (EIP-6963, by name and icon)
 * first, then the curated ones that are not installed, with an install link.
 */
export function WalletList({ kit, wallets }: { kit: Web3Kit; wallets: readonly WalletOption[] }) {
  const { t } = useUiTranslation();
  const errorMessage = useErrorMessage();
  const [busy, setBusy] = useState<string | null>(null);
  // The generic injected connector (window.ethereum) only when no wallet announced itself by EIP-6963
  // and there is such a provider: otherwise it is a duplicate, or a button that can only fail.
  const all = wallets;
  const announced = all.filter((w) => w.id !== 'injected');
  const hasInjected = typeof window !== 'undefined' && 'ethereum' in window && window.ethereum !== undefined;
  const found = announced.length > 0 || !hasInjected ? announced : all.filter((w) => w.id === 'injected');
  const known = new Set(found.map((w) => w.rdns).filter((r): r is string => r !== null));
  const missing = WALLET_CATALOGUE.filter((w) => !known.has(w.rdns));
  const entry = (w: WalletOption) => WALLET_CATALOGUE.find((c) => c.rdns === w.rdns);
  const choose = async (w: WalletOption) => {
    setBusy(w.id);
    try {
      await kit.connect(w.id);
    } catch (err) {
      toast.fail(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div data-testid="wallet-list">
      <List header={t('web3.chooseWallet')}>
        {found.length === 0 ? <List.Item>{t('web3.noneFound')}</List.Item> : null}
        {found.map((w) => (
          <List.Item
            key={w.id}
            data-testid="wallet-option"
            prefix={<WalletLogo name={w.name} icon={w.icon} color={entry(w)?.color} />}
            description={entry(w) ? entry(w)?.currencies.join(' · ') : t('web3.browserWallet')}
            extra={
              <Button size="small" color="primary" loading={busy === w.id} onClick={() => void choose(w)}>
                {t('web3.connect')}
              </Button>
            }
          >
            {w.id === 'injected' ? t('web3.browserWallet') : w.name}
          </List.Item>
        ))}
      </List>
      {/* A phone with no wallet here: open this page in a wallet app's own browser instead. */}
      {found.length === 0 && isMobileBrowser(typeof navigator === 'undefined' ? undefined : navigator) ? (
        <OpenInWallet />
      ) : null}
      {missing.length > 0 ? (
        <List header={t('web3.moreWallets')}>
          {missing.map((w) => (
            <List.Item
              key={w.id}
              prefix={<WalletLogo name={w.name} icon={null} color={w.color} />}
              description={`${t(`web3.type.${w.type}`)} · ${w.currencies.join(' · ')} — ${t(`web3.about.${w.id}`)}`}
              extra={
                <a href={w.installUrl} target="_blank" rel="noopener noreferrer" className="cw-wallet__install">
                  {t('web3.install')}
                </a>
              }
            >
              {w.name}
            </List.Item>
          ))}
        </List>
      ) : null}
    </div>
  );
}
