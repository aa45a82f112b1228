import { isApiError } from '@cw/shared-state/api';
import { parseAmount } from '@cw/shared-state/money';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useDebounced } from '../../../lib/use-debounced.ts';
import { useNow } from '../../../lib/use-now.ts';
import { type QuoteRequest, type RampOptions, requestQuote, type Side } from '../api/ramp-api.ts';

/** Fiat amounts (BRL, INR) have two fraction digits. */
export const FIAT_DECIMALS = 2;

export interface RampFormInit {
  side: Side;
  pair: string;
  amount: string;
}

export interface RampFormValues {
  side: Side;
  /** `COIN/network`, one of the options' pairs. */
  pair: string;
  /** As typed (the app language's decimal mark); fiat for a buy, coins for a sell. */
  amount: string;
  method: string;
  payoutMethodId: string;
  terms: boolean;
}

export const pairKey = (p: { coin: string; network: string }) => `${p.coin}/${p.network}`;

function splitPair(pair: string): { coin: QuoteRequest['coin']; network: QuoteRequest['network'] } {
  const [coin, network] = pair.split('/');
  return { coin: coin as QuoteRequest['coin'], network: network as QuoteRequest['network'] };
}

/**
 * The buy/sell form: values, the quote request they make (debounced), the quote with its expiry,
 * and the rule that a quote refreshed because it expired must be accepted again before placing.
 */
export function useRampForm(
  options: RampOptions,
  init: RampFormInit,
  decimalsOf: (coin: string) => number,
  locale: string,
) {
  const firstMethod = (side: Side) => (side === 'buy' ? options.buyMethods[0] : options.payoutKinds[0]) ?? '';
  const [values, setValues] = useState<RampFormValues>(() => ({
    side: init.side,
    pair: init.pair,
    amount: init.amount,
    method: firstMethod(init.side),
    payoutMethodId: '',
    terms: false,
  }));
  const [acceptedId, setAcceptedId] = useState<string | null>(null);
  const now = useNow(500);

  const request = useMemo((): QuoteRequest | null => {
    const { coin, network } = splitPair(values.pair);
    const decimals = values.side === 'buy' ? FIAT_DECIMALS : decimalsOf(coin);
    const minor = parseAmount(values.amount, decimals, locale);
    if (minor === null || minor <= 0n || !values.method) return null;
    return {
      side: values.side,
      coin,
      network,
      amountMinor: minor.toString(),
      method: values.method as QuoteRequest['method'],
    };
  }, [values.side, values.pair, values.amount, values.method, decimalsOf, locale]);
  const settled = useDebounced(request, 400);

  const quote = useQuery({
    queryKey: ['ramp', 'quote', settled],
    queryFn: () => requestQuote(settled as QuoteRequest),
    enabled: settled !== null && options.available,
    staleTime: Number.POSITIVE_INFINITY,
    retry: (count, error) => !isApiError(error) && count < 2,
  });

  // The first quote of a request is accepted by placing the order; an expired one is re-asked for
  // at once, and that new rate must be accepted by the user before anything is placed.
  const expired = quote.data ? Date.parse(quote.data.expiresAt) <= now : false;
  useEffect(() => {
    if (expired && !quote.isFetching) void quote.refetch();
  }, [expired, quote.isFetching, quote.refetch]);
  const [firstId, setFirstId] = useState<string | null>(null);
  useEffect(() => {
    if (quote.data && firstId === null) setFirstId(quote.data.id);
  }, [quote.data, firstId]);
  // A new request (by content: the request object is rebuilt on renders that change nothing) starts over.
  // Keyed on identity, a re-render half a second after a refresh took the refreshed quote for the first one
  // and dropped the need to accept it.
  const settledKey = settled === null ? null : JSON.stringify(settled);
  useEffect(() => {
    setFirstId(null);
    setAcceptedId(null);
  }, [settledKey]);
  const current = quote.data && !expired && settled !== null ? quote.data : null;
  // Until the effect above records it, the request's first quote is the one shown (no render where the
  // first quote looks refreshed and asks to be accepted).
  const first = firstId ?? quote.data?.id ?? null;
  const needsAccept = current !== null && current.id !== first && current.id !== acceptedId;

  const set = <K extends keyof RampFormValues>(key: K, value: RampFormValues[K]) =>
    setValues((v) => ({
      ...v,
      [key]: value,
      ...(key === 'side' ? { method: firstMethod(value as Side), amount: '', payoutMethodId: '' } : {}),
    }));

  return {
    values,
    set,
    request,
    quote: current,
    quoteQuery: quote,
    pending: request !== null && (request !== settled || quote.isFetching),
    needsAccept,
    accept: () => {
      if (current) setAcceptedId(current.id);
    },
    refresh: () => void quote.refetch(),
    now,
  };
}

export type RampForm = ReturnType<typeof useRampForm>;
