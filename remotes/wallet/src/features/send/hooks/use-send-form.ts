import { useCatalogue } from '@cw/shared-state/catalogue';
import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate, useSearchParams } from '@cw/shared-state/router';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useAvailable } from '../../../lib/balances.ts';
import { useCodeMessage } from '../../../lib/code-message.ts';
import { nextStep, SEND_STEP_PATHS, useSendFlow } from '../stores/send-flow.ts';
import { type SendMode, type SendProblem, validateSend } from '../utils/validate-send.ts';
import { useRecipientCheck } from './use-recipient-check.ts';

/** What the user typed and chose, as entered (prefilled from the URL: ?mode=&coin=&network=&address=). */
function useSendInputs() {
  const [params] = useSearchParams();
  const [mode, setMode] = useState<SendMode>(params.get('mode') === 'send' ? 'send' : 'withdrawal');
  const [coinChoice, setCoin] = useState(params.get('coin') ?? 'USDT');
  const [networkChoice, setNetwork] = useState(params.get('network') ?? '');
  const [target, setTarget] = useState(params.get('address') ?? '');
  const [amountText, setAmountText] = useState('');
  const [touched, setTouched] = useState({ target: false, amount: false });
  return {
    mode,
    setMode,
    coinChoice,
    networkChoice,
    target,
    setTarget,
    amountText,
    setAmountText,
    touched,
    touch: (field: 'target' | 'amount') => setTouched((s) => ({ ...s, [field]: true })),
    touchAll: () => setTouched({ target: true, amount: true }),
    setCoin: (coin: string) => {
      setCoin(coin);
      setNetwork('');
    },
    setNetwork,
  };
}

/** The catalogue pair the choices resolve to: every pair is listed; one whose withdrawals are off says so. */
function usePair(coinChoice: string, networkChoice: string) {
  const { view, isError, refetch } = useCatalogue();
  const coins: string[] = view ? [...new Set(view.catalogue.pairs.map((p) => p.coin))] : [];
  const coin = coins.includes(coinChoice) ? coinChoice : (coins[0] ?? '');
  const pairs = view?.catalogue.pairs.filter((p) => p.coin === coin) ?? [];
  const pair = pairs.find((p) => p.network === networkChoice) ?? pairs[0];
  const limits = pair
    ? {
        minMinor: BigInt(pair.withdrawMinMinor),
        maxMinor: BigInt(pair.withdrawMaxMinor),
        feeMinor: BigInt(pair.withdrawFeeMinor),
      }
    : undefined;
  return { view, isError, refetch, coins, coin, pairs, pair, network: pair?.network ?? '', limits };
}

/**
 * The send form: inputs, the pair, the checks of validate-send.ts, the recipient asked of the server
 * as it is typed (a transfer, before any code is e-mailed), and `next`, which starts the send flow.
 */
export function useSendForm() {
  const { t } = useTranslation(NAMESPACE);
  const codeMessage = useCodeMessage();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const start = useSendFlow((s) => s.start);
  const inputs = useSendInputs();
  const { mode, target, amountText, touched } = inputs;
  const resolved = usePair(inputs.coinChoice, inputs.networkChoice);
  const { coin, network, pair, limits } = resolved;
  const decimals = resolved.view?.decimalsOf(coin) ?? 0;
  const available = useAvailable(coin);
  const check = validateSend({ mode, network, target, amountText, decimals, availableMinor: available, limits });
  const problemText = (problem: SendProblem | undefined) => {
    if (!problem) return undefined;
    return problem.startsWith('send.') ? t(problem) : codeMessage(problem as Parameters<typeof codeMessage>[0]);
  };
  const transfer = mode === 'send';
  const recipient = useRecipientCheck(target.trim(), check.recipientKind, transfer && check.target === undefined);
  const recipientError = transfer && recipient.isError ? errorMessage(recipient.error) : undefined;
  const withdrawDisabled = mode === 'withdrawal' && pair !== undefined && !pair.withdrawEnabled;

  const next = () => {
    inputs.touchAll();
    if (check.target || check.amount || !pair || withdrawDisabled) return;
    if (transfer && !recipient.data) return;
    start({
      kind: mode,
      coin,
      network: transfer ? (recipient.data?.network ?? '') : network,
      target: target.trim(),
      recipientKind: transfer ? check.recipientKind : undefined,
      amountMinor: check.amountMinor.toString(),
      feeMinor: check.feeMinor.toString(),
      arrivalMinor: check.arrivalMinor.toString(),
    });
    void navigate(SEND_STEP_PATHS[nextStep('form', false)]);
  };

  return {
    ...inputs,
    ...resolved,
    decimals,
    available,
    check,
    transfer,
    recipient,
    withdrawDisabled,
    targetError: touched.target ? (problemText(check.target) ?? recipientError) : recipientError,
    amountError: touched.amount ? problemText(check.amount) : undefined,
    next,
  };
}

export type SendForm = ReturnType<typeof useSendForm>;
