import type { CatalogueView } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { delocalizeAmount, localizeDecimal, useAmountFormat } from '@cw/shared-state/money';
import { useNavigate } from '@cw/shared-state/router';
import { shortAddress, type Web3Kit } from '@cw/shared-state/web3';
import { NumberInput } from '@cw/shared-ui/number-input';
import { toast } from '@cw/shared-ui/toast';
import { WalletConnectPanel } from '@cw/shared-ui/wallet-connect';
import { Button } from 'antd-mobile';
import { useEffect, useRef, useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as ui from '../../../lib/wallet-page.module.css';
import { FIND_POLL_MS, FIND_TIMEOUT_MS, findDepositByTransaction } from '../api/by-transaction.ts';
import { depositTarget, type DepositTarget as Target } from '../utils/deposit-target.ts';
import { walletAmount, walletAmountProblem } from '../utils/wallet-amount.ts';

/** The wallet's balance of the coin on the chain (native or token), re-read when the wallet changes. */
function useWalletBalance(kit: Web3Kit, target: Target, address: string | null): bigint | null {
  const [balance, setBalance] = useState<bigint | null>(null);
  useEffect(() => {
    let live = true;
    setBalance(null);
    const read = target.token ? kit.tokenBalance(target.chainId, target.token) : kit.nativeBalance(target.chainId);
    read.then(
      (b) => live && setBalance(b),
      () => live && setBalance(null),
    );
    return () => {
      live = false;
    };
  }, [kit, target.chainId, target.token, address]);
  return balance;
}

/**
 * Polls for the deposit the transaction paid and opens it (confirmations count up there, live); stops
 * when the user has left the screen, so it never pulls them back.
 */
async function followDeposit(
  network: string,
  hash: string,
  open: (id: string) => void,
  here: () => boolean,
): Promise<boolean> {
  const until = Date.now() + FIND_TIMEOUT_MS;
  while (Date.now() < until && here()) {
    const found = await findDepositByTransaction(network, hash);
    if (found) {
      open(found.id);
      return true;
    }
    await new Promise((r) => setTimeout(r, FIND_POLL_MS));
  }
  return false;
}

interface FormProps {
  kit: Web3Kit;
  target: Target;
  address: string | null;
  /** Kept by the parent: the form is remounted when the wallet reconnects, the typed amount is not lost. */
  text: string;
  setText: (text: string) => void;
}

function DepositForm({ kit, target, address, text, setText }: FormProps) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const format = useAmountFormat();
  const navigate = useNavigate();
  const [phase, setPhase] = useState<'edit' | 'prompt' | 'waiting'>('edit');
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);
  const balance = useWalletBalance(kit, target, address);
  const decimals = target.view.decimalsOf(target.coin);
  const amount = walletAmount(text, decimals, target.chainDecimals);
  const problem = text === '' ? null : walletAmountProblem(amount, target.minDepositMinor, balance);
  const scale = 10n ** BigInt(target.chainDecimals - decimals);
  const shown = (ledgerMinor: bigint) =>
    `${format.display(ledgerMinor, target.view.displayOf(target.coin))} ${target.coin}`;
  const send = async () => {
    if (!amount || problem) return;
    if (balance === 0n) {
      toast.fail(t('walletDeposit.balanceZero'));
      return;
    }
    setPhase('prompt');
    try {
      // The kit decides native or token from the coin and its own catalogue, and checks both agree.
      const hash = await kit.deposit({
        chainId: target.chainId,
        coin: target.coin,
        depositAddress: target.depositAddress,
        amount: amount.chainAmount,
      });
      setPhase('waiting');
      const opened = await followDeposit(
        target.network,
        hash,
        (id) => void navigate(`/coinTopup/topup?id=${id}`),
        () => mounted.current,
      );
      if (!opened && mounted.current) toast.text(t('walletDeposit.slow'));
    } catch (err) {
      toast.fail(errorMessage(err));
      setPhase('edit');
    }
  };
  return (
    <section className={`${ui.card} ${ui.field}`} data-testid="wallet-deposit-form">
      <div className={ui.row}>
        <span className={ui.label}>{t('walletDeposit.inWallet')}</span>
        <span data-testid="wallet-coin-balance">{balance === null ? '…' : shown(balance / scale)}</span>
      </div>
      <span className={ui.label}>{t('walletDeposit.amount')}</span>
      <NumberInput
        value={localizeDecimal(text, format.locale, { grouping: false })}
        onChange={(next) => setText(delocalizeAmount(next, format.locale))}
        locale={format.locale}
        decimals={decimals}
        placeholder={t('walletDeposit.placeholder', { min: shown(target.minDepositMinor) })}
        maxLength={40}
        data-testid="wallet-deposit-amount"
      />
      {problem ? (
        <span className={ui.error} role="alert" data-testid="wallet-deposit-problem">
          {t(`walletDeposit.${problem}`, { min: shown(target.minDepositMinor) })}
        </span>
      ) : null}
      {amount && !problem ? (
        <p className={ui.muted} data-testid="wallet-deposit-preview">
          {t('walletDeposit.preview', {
            // Exactly what the wallet will be asked for, never rounded to the display precision.
            amount: `${format.amount(amount.chainAmount, target.chainDecimals)} ${target.coin}`,
            address: shortAddress(target.depositAddress),
          })}
        </p>
      ) : null}
      <Button
        block
        color="primary"
        data-testid="wallet-deposit-send"
        disabled={!amount || problem !== null || phase !== 'edit'}
        loading={phase !== 'edit'}
        onClick={() => void send()}
      >
        {phase === 'prompt'
          ? t('walletDeposit.confirmInWallet')
          : phase === 'waiting'
            ? t('walletDeposit.waiting')
            : t('walletDeposit.send')}
      </Button>
    </section>
  );
}

/**
 * "Deposit from my wallet" on an EVM network: the wallet is asked for exactly one transaction, the
 * typed amount to this user's own deposit address (native value, or the token's transfer), shown
 * before the prompt; the deposit watcher credits it and the screen follows it to "successful".
 */
export function WalletDeposit({
  coin,
  network,
  address,
  view,
}: {
  coin: string;
  network: string;
  address: string;
  view: CatalogueView;
}) {
  const { t } = useTranslation(NAMESPACE);
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const target = depositTarget(view, coin, network, address);
  if (target === null) return null;
  if (target === 'no-contract') {
    return (
      <p className={`${ui.card} ${ui.muted}`} role="status" data-testid="wallet-deposit-unavailable">
        {t('walletDeposit.noContract', { coin })}
      </p>
    );
  }
  if (!open) {
    return (
      <Button block fill="outline" color="primary" data-testid="wallet-deposit-open" onClick={() => setOpen(true)}>
        {t('walletDeposit.open')}
      </Button>
    );
  }
  return (
    <section data-testid="wallet-deposit">
      <WalletConnectPanel chainId={target.chainId}>
        {({ kit, state }) => (
          <DepositForm kit={kit} target={target} address={state.address} text={text} setText={setText} />
        )}
      </WalletConnectPanel>
    </section>
  );
}
