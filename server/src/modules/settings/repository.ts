import type { Kysely, Selectable } from 'kysely';
import type { Database, UserSettingsTable } from '../../db/schema.ts';
import type { UserSettings } from './schemas.ts';

/** Kysely or a Transaction (a Transaction is a Kysely), so callers can compose these in one transaction. */
type Db = Kysely<Database>;

function toSettings(row: Selectable<UserSettingsTable>): UserSettings {
  // Values were validated against the closed lists on the way in.
  return {
    language: row.language,
    priceColor: row.price_color,
    fiatCurrency: row.fiat_currency,
    quickBuy: {
      enabled: row.quick_buy_enabled,
      coin: row.quick_buy_coin,
      fiatAmount: row.quick_buy_fiat_amount,
    },
  };
}

export async function findSettings(db: Db, userId: string): Promise<UserSettings | undefined> {
  const row = await db.selectFrom('user_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
  return row && toSettings(row);
}

export async function upsertSettings(db: Db, userId: string, settings: UserSettings, now: Date): Promise<UserSettings> {
  const values = {
    language: settings.language,
    price_color: settings.priceColor,
    fiat_currency: settings.fiatCurrency,
    quick_buy_enabled: settings.quickBuy.enabled,
    quick_buy_coin: settings.quickBuy.coin,
    quick_buy_fiat_amount: settings.quickBuy.fiatAmount,
    updated_at: now,
  };
  const row = await db
    .insertInto('user_settings')
    .values({ user_id: userId, ...values })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
    .returningAll()
    .executeTakeFirstOrThrow();
  return toSettings(row);
}
