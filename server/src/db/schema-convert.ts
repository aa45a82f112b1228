import type { Generated } from 'kysely';
import type { CoinCode } from '../modules/catalogue/catalogue.ts';

/** Quotes and conversions (modules/convert); `Database` in schema.ts extends it. */
export interface ConvertDatabase {
  convert_quotes: ConvertQuotesTable;
  conversions: ConversionsTable;
}

/** Convert quotes (modules/convert, migration 0009). NUMERIC(78,0) columns read as decimal strings. */
export interface ConvertQuotesTable {
  id: Generated<string>;
  user_id: string;
  from_asset: CoinCode;
  to_asset: CoinCode;
  amount_minor: string;
  fee_minor: string;
  receive_minor: string;
  /** The rate as an exact rational: whole `to` coins per whole `from` coin. */
  rate_num: string;
  rate_den: string;
  min_minor: string;
  max_minor: string;
  price_source: string;
  created_at: Date;
  expires_at: Date;
  replaced_by: string | null;
}

/** One per accepted quote (quote_id unique); the two linked ledger transfers. */
export interface ConversionsTable {
  id: Generated<string>;
  quote_id: string;
  user_id: string;
  from_asset: CoinCode;
  to_asset: CoinCode;
  amount_minor: string;
  fee_minor: string;
  receive_minor: string;
  rate_num: string;
  rate_den: string;
  give_transfer_id: string;
  get_transfer_id: string;
  created_at: Date;
}
