import { webSocket } from 'viem';

/**
 * New-head notifications of an EVM node over WebSocket (`eth_subscribe("newHeads")`, which anvil and
 * real nodes speak). A head only WAKES the watcher early: what is scanned is still decided by the
 * stored cursor against the chain, so a dropped, late, repeated or reordered notification can never
 * skip or double-credit a block. When the socket drops, the watcher keeps polling on its timer and
 * the subscription is re-made with back-off.
 */
export interface HeadSource {
  /** Calls `onHead` on each new head until the returned function is called. */
  subscribe(onHead: () => void): () => void;
}

export interface WsHeadsOptions {
  url: string;
  /** First delay before re-subscribing after a drop; doubles up to RETRY_MAX_MS. */
  retryMs?: number;
  log?: (msg: string, err?: unknown) => void;
  /** Called each time the subscription is (re-)established: heads flow from then on. */
  onSubscribed?: () => void;
}

const RETRY_MAX_MS = 30_000;

export function wsHeads(options: WsHeadsOptions): HeadSource {
  const retryFirstMs = options.retryMs ?? 1_000;
  return {
    subscribe(onHead) {
      let closed = false;
      let retryMs = retryFirstMs;
      let timer: NodeJS.Timeout | null = null;
      let current: { stop: () => void } | null = null;

      const retry = (err: unknown) => {
        if (closed) return;
        options.log?.('head subscription dropped; polling until it is back', err);
        current?.stop();
        current = null;
        timer = setTimeout(connect, retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      };
      const connect = () => {
        if (closed) return;
        // The transport's own subscribe: `eth_subscribe("newHeads")` on one socket, no polling fallback
        // of viem's (the watcher's timer is the fallback), no reconnect of its own (ours backs off).
        const transport = webSocket(options.url, { reconnect: false, keepAlive: { interval: 15_000 } })({
          retryCount: 0,
        });
        let dropped = false;
        const onError = (err: unknown) => {
          if (dropped) return;
          dropped = true;
          retry(err);
        };
        const stop = { stop: () => {} };
        current = stop;
        transport.value
          ?.subscribe({
            params: ['newHeads'],
            onData: () => {
              retryMs = retryFirstMs;
              onHead();
            },
            onError,
          })
          .then(({ unsubscribe }) => {
            stop.stop = () => {
              void unsubscribe().catch(() => {});
              void transport.value
                ?.getRpcClient()
                .then((rpc) => rpc.close())
                .catch(() => {});
            };
            if (closed || dropped) stop.stop();
            else options.onSubscribed?.();
          })
          .catch(onError);
      };
      connect();
      return () => {
        closed = true;
        if (timer) clearTimeout(timer);
        current?.stop();
      };
    },
  };
}
