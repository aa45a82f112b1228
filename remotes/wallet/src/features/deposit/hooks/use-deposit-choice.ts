import { useCatalogue } from '@cw/shared-state/catalogue';
import { useSearchParams } from '@cw/shared-state/router';

/**
 * The coin and network of the deposit screen, kept in the URL (?coin=&network=). Every coin and
 * network of the catalogue is listed; `live` says whether the network takes deposits now.
 */
export function useDepositChoice() {
  const [params, setParams] = useSearchParams();
  const { view, isError, refetch } = useCatalogue();
  const coins: string[] = view ? [...new Set(view.catalogue.pairs.map((p) => p.coin))] : [];
  // USDT first when nothing is asked for: the coin most deposits are in.
  const wanted = params.get('coin') ?? 'USDT';
  const coin = coins.includes(wanted) ? wanted : (coins[0] ?? '');
  const networks = view?.catalogue.pairs.filter((p) => p.coin === coin) ?? [];
  const firstLive = networks.find((p) => p.depositEnabled) ?? networks[0];
  const network = networks.find((p) => p.network === params.get('network'))?.network ?? firstLive?.network ?? '';
  const live = networks.find((p) => p.network === network)?.depositEnabled ?? false;
  const choose = (next: { coin?: string; network?: string }) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next.coin) {
          updated.set('coin', next.coin);
          updated.delete('network');
        }
        if (next.network) updated.set('network', next.network);
        return updated;
      },
      { replace: true },
    );
  return { view, isError, refetch, coins, coin, networks, network, live, choose };
}

export type DepositChoice = ReturnType<typeof useDepositChoice>;
