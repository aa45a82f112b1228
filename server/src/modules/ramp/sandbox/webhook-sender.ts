import { webhookHeader } from '../moonpay/signing.ts';

/**
 * The sandbox's webhook deliveries, signed like MoonPay's (`Moonpay-Signature-V2`). Like the real
 * service it delivers at least once and in no promised order: a share of events is sent twice, and
 * a buy's "completed" may overtake its "pending". A refused or failed delivery is retried with
 * backoff (at most DELIVERY_ATTEMPTS_MAX times).
 */
export interface WebhookSenderOptions {
  url: () => string | null;
  webhookKey: string;
  /** Share of events delivered a second time, 0..1. */
  duplicateRate: number;
  random: () => number;
  log?: (msg: string) => void;
}

const DELIVERY_ATTEMPTS_MAX = 6;
const FIRST_RETRY_MS = 300;

export function createWebhookSender(options: WebhookSenderOptions) {
  const inflight = new Set<Promise<void>>();

  async function deliver(body: string): Promise<void> {
    for (let attempt = 0; attempt < DELIVERY_ATTEMPTS_MAX; attempt++) {
      const url = options.url();
      if (!url) return;
      try {
        const t = Math.floor(Date.now() / 1000);
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'moonpay-signature-v2': webhookHeader(t, body, options.webhookKey),
          },
          body,
          signal: AbortSignal.timeout(5000),
        });
        if (res.ok) return;
        options.log?.(`webhook answered ${res.status}`);
      } catch (err) {
        options.log?.(`webhook delivery failed: ${(err as Error).message}`);
      }
      await new Promise((resolve) => setTimeout(resolve, FIRST_RETRY_MS * 2 ** attempt));
    }
  }

  function track(p: Promise<void>) {
    inflight.add(p);
    void p.finally(() => inflight.delete(p));
  }

  return {
    send(type: string, data: Record<string, unknown>, externalCustomerId: string | null) {
      const body = JSON.stringify({ type, data, externalCustomerId });
      track(deliver(body));
      if (options.random() < options.duplicateRate) {
        track(new Promise((resolve) => setTimeout(resolve, 100 + options.random() * 400)).then(() => deliver(body)));
      }
    },
    /** Waits for the deliveries under way (tests and shutdown). */
    async settle(): Promise<void> {
      while (inflight.size > 0) await Promise.allSettled([...inflight]);
    },
  };
}

/** A small seeded generator (mulberry32), so a sandbox run can be repeated. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
