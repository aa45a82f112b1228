import type { ColumnType, Generated } from 'kysely';

/** Payout methods (migration 0024); `Database` in schema.ts extends `PayoutsDatabase`. */
export interface PayoutsDatabase {
  payment_methods: PaymentMethodsTable;
}

export type PaymentMethodKind = 'bank_in' | 'pix' | 'upi' | 'chat_app';

export interface PaymentMethodsTable {
  id: Generated<string>;
  user_id: string;
  kind: PaymentMethodKind;
  active: Generated<boolean>;
  /** What screens may show: masked tails, bank, holder, key type, chat app. */
  shown: ColumnType<Record<string, string>, string, string>;
  /** AES-256-GCM sealed JSON of the numbers themselves (modules/payment-methods/sealing.ts). */
  sealed: Buffer | null;
  created_at: Date;
  updated_at: Date;
  /**
   * When the method may receive a sell while the withdrawal allowlist is on (migration 0089): the
   * allowlist hold from when it was added or switched back on.
   */
  usable_at: Date;
}
