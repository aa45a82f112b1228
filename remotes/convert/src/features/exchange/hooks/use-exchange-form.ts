import { isValidAddress } from '@cw/shared-state/address';
import { parseAmount, useAmountFormat } from '@cw/shared-state/money';
import { useState } from 'react';
import { useDebounced } from '../../../lib/use-debounced.ts';
import type { CoinCode, NetworkCode, PairAmount, RateType } from '../api/exchange-api.ts';
import { useExchangeEstimate } from '../api/exchange-queries.ts';
import type { CataloguePairs } from './use-catalogue-pairs.ts';

const ESTIMATE_DELAY_MS = 400;

/** The choice if it is offered, else the first one offered (the offer changes with the running chains). */
const pick = (choice: string, offered: readonly string[]) => (offered.includes(choice) ? choice : (offered[0] ?? ''));

/** What the user typed and chose on /exchange, as entered. */
function useExchangeInputs() {
  const [sendChoice, setSendCoin] = useState('USDT');
  const [sendNetwork, setSendNetwork] = useState('');
  const [receiveChoice, setReceiveCoin] = useState('BNB');
  const [receiveNetwork, setReceiveNetwork] = useState('');
  const [amountText, setAmountText] = useState('');
  const [rateType, setRateType] = useState<RateType>('fixed');
  const [receiveAddress, setReceiveAddress] = useState('');
  const [refundAddress, setRefundAddress] = useState('');
  const [terms, setTerms] = useState(false);
  return {
    values: { sendChoice, sendNetwork, receiveChoice, receiveNetwork, amountText, rateType },
    addresses: { receiveAddress, refundAddress, terms },
    set: {
      sendCoin: (coin: string) => {
        setSendCoin(coin);
        setSendNetwork('');
      },
      sendNetwork: setSendNetwork,
      receiveCoin: (coin: string) => {
        setReceiveCoin(coin);
        setReceiveNetwork('');
      },
      receiveNetwork: setReceiveNetwork,
      amountText: setAmountText,
      rateType: setRateType,
      receiveAddress: setReceiveAddress,
      refundAddress: setRefundAddress,
      terms: setTerms,
    },
  };
}

/** The pair actually offered for what was chosen (a network gone from the offer falls back to the first). */
function resolvePair(pairs: CataloguePairs | null, values: ReturnType<typeof useExchangeInputs>['values']) {
  const sendCoin = pick(values.sendChoice, pairs?.sendCoins ?? []);
  const receiveCoin = pick(values.receiveChoice, pairs?.receiveCoins ?? []);
  const sendNetworks = pairs?.sendNetworks(sendCoin) ?? [];
  const send = pick(values.sendNetwork, sendNetworks);
  // Receiving the same coin on the same network would be no exchange at all.
  const receiveNetworks = (pairs?.receiveNetworks(receiveCoin) ?? []).filter(
    (n) => !(receiveCoin === sendCoin && n === send),
  );
  const receive = pick(values.receiveNetwork, receiveNetworks);
  return { sendCoin, receiveCoin, sendNetworks, receiveNetworks, send, receive };
}

/**
 * The /exchange form: inputs, the pair they resolve to, the amount, the estimate for the chosen rate
 * type (the quote the order will use: a fixed one carries its rate id) and whether it can be placed.
 */
export function useExchangeForm(pairs: CataloguePairs | null) {
  const { locale } = useAmountFormat();
  const inputs = useExchangeInputs();
  const { values, addresses } = inputs;
  const resolved = resolvePair(pairs, values);
  const amountMinor = parseAmount(values.amountText, pairs?.decimalsOf(resolved.sendCoin) ?? 0, locale);
  const pair = {
    sendCoin: resolved.sendCoin as CoinCode,
    sendNetwork: resolved.send as NetworkCode,
    receiveCoin: resolved.receiveCoin as CoinCode,
    receiveNetwork: resolved.receive as NetworkCode,
  };
  const complete = amountMinor !== null && amountMinor > 0n && resolved.send !== '' && resolved.receive !== '';
  const estimateKey: PairAmount | null = useDebounced(
    complete ? { ...pair, amountMinor: amountMinor.toString() } : null,
    ESTIMATE_DELAY_MS,
  );
  const estimate = useExchangeEstimate(estimateKey, values.rateType);
  const current = amountMinor !== null && estimateKey?.amountMinor === amountMinor.toString();
  const quote = current && estimate.data?.rateType === values.rateType ? estimate.data : undefined;

  const receiveAddress = addresses.receiveAddress.trim();
  const refundAddress = addresses.refundAddress.trim();
  const receiveOk = resolved.receive !== '' && isValidAddress(resolved.receive, receiveAddress);
  const refundGiven = refundAddress !== '';
  const refundValid = refundGiven && isValidAddress(resolved.send, refundAddress);
  // A fixed rate pays a refund on chain: it needs an address; a float order may refund to the balance.
  const refundOk = refundGiven ? refundValid : values.rateType === 'float';
  const ready =
    complete && receiveOk && refundOk && addresses.terms && (values.rateType === 'float' || quote !== undefined);
  const order =
    ready && amountMinor !== null
      ? {
          ...pair,
          amountMinor: amountMinor.toString(),
          rateType: values.rateType,
          receiveAddress,
          ...(refundGiven ? { refundAddress } : {}),
        }
      : null;
  return { ...inputs, ...resolved, amountMinor, estimate, quote, receiveOk, refundGiven, refundValid, order };
}

export type ExchangeForm = ReturnType<typeof useExchangeForm>;
