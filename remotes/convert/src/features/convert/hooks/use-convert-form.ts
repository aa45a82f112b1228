import { isApiError } from '@cw/shared-state/api';
import { parseAmount } from '@cw/shared-state/money';
import { useSearchParams } from '@cw/shared-state/router';
import { useEffect, useState } from 'react';
import { useConvertBalances } from '../api/convert-queries.ts';
import { type ConvertCoin, type ConvertCoinInfo, decimalsOf, inputDecimals, isConvertCoin } from '../utils/coins.ts';
import type { HeldQuote } from '../utils/held-quote.ts';
import { useQuote } from './use-quote.ts';
import { useSessionStatus } from './use-signed-in.ts';

/** min/max of a CONVERT_AMOUNT_OUT_OF_RANGE error, in minor units. */
function rangeOf(error: unknown): { min: string; max: string } | null {
  if (!isApiError(error) || error.code !== 'CONVERT_AMOUNT_OUT_OF_RANGE' || !Array.isArray(error.details)) return null;
  const pick = (rule: string) =>
    (error.details as { rule?: string; message?: string }[]).find((d) => d.rule === rule)?.message;
  const min = pick('min');
  const max = pick('max');
  return min && max ? { min, max } : null;
}

/** The pair from the URL (?from=&to=), each a catalogue coin, never the same twice. */
function usePair(coins: readonly ConvertCoinInfo[]) {
  const [params, setParams] = useSearchParams();
  const fromParam = params.get('from');
  const from: ConvertCoin = isConvertCoin(fromParam, coins) ? fromParam : 'USDT';
  const toParam = params.get('to');
  const fallbackTo: ConvertCoin = from === 'BTC' ? 'USDT' : 'BTC';
  const to: ConvertCoin = isConvertCoin(toParam, coins) && toParam !== from ? toParam : fallbackTo;
  const go = (next: { from?: ConvertCoin; to?: ConvertCoin }) =>
    setParams(new URLSearchParams({ from: next.from ?? from, to: next.to ?? to }), { replace: true });
  return { from, to, go, initialAmount: params.get('amount') ?? '' };
}

/**
 * The convert form: the pair, the typed amount (in the digits the pair is typed in), the balance,
 * and the quote on screen (`setShown` puts a re-quoted rate there without a new request).
 */
export function useConvertForm(coins: readonly ConvertCoinInfo[]) {
  const { from, to, go, initialAmount } = usePair(coins);
  const [amountText, setAmountText] = useState(initialAmount);
  const [shown, setShown] = useState<HeldQuote | null>(null);
  const status = useSessionStatus();
  const signedIn = status === 'authenticated';
  const balances = useConvertBalances(signedIn);
  const decimals = inputDecimals(from, to, coins);
  const amountMinor = parseAmount(amountText, decimals);
  // A stable swap into fewer decimals is typed in the target's digits; the quote is in `from` units.
  const scale = 10n ** BigInt(decimalsOf(from, coins) - decimals);
  const scaledMinor = amountMinor === null ? null : amountMinor * scale;
  const quoteQuery = useQuote(from, to, scaledMinor, signedIn);
  const fetched = quoteQuery.data ?? null;
  useEffect(() => setShown(fetched), [fetched]);
  const quote =
    shown && shown.from === from && shown.to === to && shown.amountMinor === scaledMinor?.toString() ? shown : null;
  const available = balances.data?.get(from) ?? 0n;
  return {
    from,
    to,
    go,
    status,
    signedIn,
    decimals,
    amountText,
    setAmountText,
    /** The whole available balance, typed in the input's digits. */
    availableInInputDigits: available / scale,
    available,
    scaledMinor,
    quoteQuery,
    quote,
    setShown,
    overBalance: scaledMinor !== null && balances.data !== undefined && scaledMinor > available,
    range: rangeOf(quoteQuery.error),
  };
}

export type ConvertFormState = ReturnType<typeof useConvertForm>;
