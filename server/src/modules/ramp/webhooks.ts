import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { toTransaction } from './moonpay/client.ts';
import { type Json, objectOf, ProviderAnswerError, parseAnswer, stringOf } from './moonpay/decimals.ts';
import { verifyWebhook } from './moonpay/signing.ts';
import { type ApplyResult, applyProviderTransaction } from './provider-events.ts';

export interface WebhookDeps {
  db: Kysely<Database>;
  now: () => Date;
  webhookKey: () => string | null;
  toleranceS: number;
  /** Wall-clock ms for the signature's timestamp window (the real time, not a development clock). */
  wallClockMs?: () => number;
}

const flows: Record<string, 'buy' | 'sell'> = {
  transaction_created: 'buy',
  transaction_updated: 'buy',
  transaction_failed: 'buy',
  sell_transaction_created: 'sell',
  sell_transaction_updated: 'sell',
  sell_transaction_failed: 'sell',
};

export type WebhookOutcome = ApplyResult | 'duplicate';

/**
 * A MoonPay webhook: signature and timestamp first (401 otherwise, nothing read), then ONE
 * transaction that records the event's key and applies it. The key is the hash of the event's
 * type, transaction, status and update time: a redelivery (or a replay within the window) of the
 * same event finds its key and changes nothing; a later status of the same transaction is a new
 * event. Out-of-order events are ranked by the order's state (provider-events.ts).
 */
export function createWebhookHandler(deps: WebhookDeps) {
  const wallClockMs = deps.wallClockMs ?? Date.now;
  return async function handle(signature: string | undefined, rawBody: string): Promise<WebhookOutcome> {
    const key = deps.webhookKey();
    if (!key) throw new AppError('SERVICE_UNAVAILABLE', 'Payment provider not configured');
    const check = verifyWebhook(signature, rawBody, key, wallClockMs(), deps.toleranceS);
    if (!check.ok) throw new AppError('UNAUTHENTICATED', `Webhook signature ${check.reason}`);
    let body: Json;
    let data: Json;
    let type: string;
    try {
      body = parseAnswer(rawBody);
      type = stringOf(body, 'type');
      data = objectOf(body, 'data');
    } catch (err) {
      if (err instanceof ProviderAnswerError) throw new AppError('VALIDATION_FAILED', `Webhook body: ${err.message}`);
      throw err;
    }
    const flow = flows[type];
    if (!flow) return 'ignored';
    let tx: ReturnType<typeof toTransaction>;
    try {
      tx = toTransaction(data);
    } catch (err) {
      if (err instanceof ProviderAnswerError) throw new AppError('VALIDATION_FAILED', `Webhook body: ${err.message}`);
      throw err;
    }
    const updatedAt = typeof data.updatedAt === 'string' ? data.updatedAt : '';
    const eventKey = createHash('sha256').update(`${type}\n${tx.id}\n${tx.status}\n${updatedAt}`).digest('hex');
    const now = deps.now();
    return deps.db.transaction().execute(async (trx) => {
      const fresh = await trx
        .insertInto('ramp_webhook_events')
        .values({ event_key: eventKey, order_id: null, received_at: now })
        .onConflict((oc) => oc.column('event_key').doNothing())
        .returning('event_key')
        .executeTakeFirst();
      if (!fresh) return 'duplicate';
      return applyProviderTransaction(trx, flow, tx, now);
    });
  };
}
