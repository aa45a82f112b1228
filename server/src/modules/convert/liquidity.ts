import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, coinCodes, coinDecimals, minor } from '../catalogue/catalogue.ts';
import { assert } from '../ledger/model.ts';
import { postTransfer } from '../ledger/post-transfer.ts';
import { ensureAccount } from '../ledger/repository.ts';

/**
 * Development liquidity. Conversions pay out of `system_liquidity`; on a fresh development
 * database it is empty, so the server (unless NODE_ENV=production or CONVERT_SEED_LIQUIDITY=false)
 * funds it once per coin from `system_external` at start-up: the platform's own float, coming from
 * the outside world like a deposit would. Idempotent (one ledger key per coin and version), so a
 * restart adds nothing. In production the operators fund liquidity; when it is short a conversion
 * is refused with LIQUIDITY_SHORT, never overdrawn.
 */
export const devLiquidity: Record<CoinCode, string> = {
  BTC: '100',
  ETH: '3000',
  USDT: '10000000',
  USDC: '10000000',
  TUSD: '10000000',
  TRX: '30000000',
  BNB: '10000',
  DOGE: '60000000',
};

export async function seedLiquidity(
  db: Kysely<Database>,
  now: Date,
  amounts: Partial<Record<CoinCode, string>> = devLiquidity,
  version = 'v1',
): Promise<number> {
  let created = 0;
  for (const asset of coinCodes) {
    const text = amounts[asset];
    if (!text) continue;
    const amountMinor = minor(text, coinDecimals(asset));
    assert(amountMinor > 0n, 'seed amount is positive');
    await db.transaction().execute(async (trx) => {
      const external = await ensureAccount(trx, { kind: 'system_external', userId: null, asset });
      const liquidity = await ensureAccount(trx, { kind: 'system_liquidity', userId: null, asset });
      const result = await postTransfer(
        trx,
        {
          idempotencyKey: `convert:liquidity-seed:${version}:${asset}`,
          kind: 'convert',
          legs: [
            { accountId: external, amountMinor: -amountMinor },
            { accountId: liquidity, amountMinor },
          ],
          metadata: { purpose: 'liquidity_seed' },
        },
        now,
      );
      if (result.created) created++;
    });
  }
  return created;
}
