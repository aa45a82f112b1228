import { type Kysely, sql } from 'kysely';

/**
 * Buying and selling crypto through a payment provider (issue 13, modules/ramp).
 *
 * - `ramp_quotes`: a provider quote shown to a user, valid until `expires_at`, used by at most one order.
 * - `ramp_orders`: one row per buy or sell; `state` moves only along `ramp_order_transitions`, a
 *   snapshot of `modules/ramp/states.ts` as it was when this migration was written (migrations import
 *   no app code; `ramp.states.test.ts` fails if the two differ). A BEFORE trigger refuses an insert in
 *   another state than 'pending' and any state change not listed, whoever issues it; an AFTER trigger
 *   appends every change to the append-only `ramp_order_events` (the status timeline).
 * - `ramp_webhook_events`: the provider's webhook deliveries already applied (delivery is
 *   at-least-once: a repeated event finds its key here and changes nothing).
 * Fiat amounts are integers of the currency's minor unit (centavos, paise); crypto amounts the
 * ledger's minor unit of the coin.
 */
const rampStates = [
  'pending',
  'waiting_payment',
  'waiting_deposit',
  'processing',
  'completed',
  'failed',
  'refunded',
  'expired',
] as const;
const allowedPairs: ReadonlyArray<readonly [string, string]> = [
  ['pending', 'waiting_payment'],
  ['pending', 'waiting_deposit'],
  ['pending', 'processing'],
  ['pending', 'completed'],
  ['pending', 'failed'],
  ['pending', 'expired'],
  ['waiting_payment', 'processing'],
  ['waiting_payment', 'completed'],
  ['waiting_payment', 'failed'],
  ['waiting_payment', 'expired'],
  ['waiting_deposit', 'processing'],
  ['waiting_deposit', 'completed'],
  ['waiting_deposit', 'failed'],
  ['processing', 'completed'],
  ['processing', 'failed'],
  ['processing', 'refunded'],
  ['failed', 'refunded'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const stateList = sql.join(rampStates.map((s) => sql.lit(s)));
  await sql`create table ramp_quotes (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references users (id),
    side text not null check (side in ('buy', 'sell')),
    coin text not null,
    network text not null,
    fiat text not null,
    payment_method text not null,
    fiat_amount_minor numeric(78, 0) not null check (fiat_amount_minor > 0),
    crypto_amount_minor numeric(78, 0) not null check (crypto_amount_minor > 0),
    fee_fiat_minor numeric(78, 0) not null check (fee_fiat_minor >= 0),
    network_fee_minor numeric(78, 0) not null check (network_fee_minor >= 0),
    payout_kinds text[] not null default '{}',
    created_at timestamptz not null,
    expires_at timestamptz not null check (expires_at > created_at),
    used_at timestamptz
  )`.execute(db);
  await sql`create index ramp_quotes_expiry_idx on ramp_quotes (expires_at)`.execute(db);

  await sql`create table ramp_order_transitions (
    from_state text not null, to_state text not null, primary key (from_state, to_state)
  )`.execute(db);
  await db
    .withTables<{ ramp_order_transitions: { from_state: string; to_state: string } }>()
    .insertInto('ramp_order_transitions')
    .values(allowedPairs.map(([from_state, to_state]) => ({ from_state, to_state })))
    .execute();

  await sql`create table ramp_orders (
    id uuid primary key,
    user_id uuid not null references users (id),
    side text not null check (side in ('buy', 'sell')),
    state text not null default 'pending' check (state in (${stateList})),
    state_reason text,
    idempotency_key text not null,
    quote_id uuid not null unique references ramp_quotes (id),
    coin text not null,
    network text not null,
    fiat text not null,
    payment_method text not null,
    payout_method_id uuid references payment_methods (id),
    fiat_amount_minor numeric(78, 0) not null check (fiat_amount_minor > 0),
    crypto_amount_minor numeric(78, 0) not null check (crypto_amount_minor > 0),
    fee_fiat_minor numeric(78, 0) not null check (fee_fiat_minor >= 0),
    network_fee_minor numeric(78, 0) not null check (network_fee_minor >= 0),
    wallet_address text,
    deposit_address text,
    provider_tx_id text unique,
    provider_status text,
    withdrawal_id uuid unique references withdrawals (id),
    tx_hash text,
    checkout_expires_at timestamptz not null,
    created_at timestamptz not null,
    updated_at timestamptz not null,
    unique (user_id, idempotency_key),
    check (side = 'buy' or payout_method_id is not null),
    check (side = 'sell' or wallet_address is not null),
    check (state <> 'waiting_deposit' or (side = 'sell' and deposit_address is not null and withdrawal_id is not null))
  )`.execute(db);
  await sql`create index ramp_orders_user_idx on ramp_orders (user_id, created_at desc)`.execute(db);
  await sql`create index ramp_orders_open_idx on ramp_orders (checkout_expires_at)
    where state in ('pending', 'waiting_payment')`.execute(db);

  await sql`create table ramp_order_events (
    id bigserial primary key,
    order_id uuid not null references ramp_orders (id),
    from_state text,
    to_state text not null,
    reason text,
    occurred_at timestamptz not null
  )`.execute(db);
  await sql`create index ramp_order_events_order_idx on ramp_order_events (order_id, id)`.execute(db);

  await sql`create table ramp_webhook_events (
    event_key text primary key,
    order_id uuid references ramp_orders (id),
    received_at timestamptz not null
  )`.execute(db);

  await sql`
    create function ramp_orders_check_state() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.state <> 'pending' then
          raise exception 'ramp order must be created pending, not %', new.state
            using errcode = 'check_violation', constraint = 'ramp_orders_transition';
        end if;
      elsif new.state is distinct from old.state then
        if not exists (select 1 from ramp_order_transitions t
                       where t.from_state = old.state and t.to_state = new.state) then
          raise exception 'ramp order % may not go from % to %', old.id, old.state, new.state
            using errcode = 'check_violation', constraint = 'ramp_orders_transition';
        end if;
      end if;
      if tg_op = 'UPDATE' and (new.user_id, new.side, new.coin, new.network, new.fiat, new.fiat_amount_minor,
          new.crypto_amount_minor, new.quote_id) is distinct from (old.user_id, old.side, old.coin, old.network,
          old.fiat, old.fiat_amount_minor, old.crypto_amount_minor, old.quote_id) then
        raise exception 'ramp order % terms are fixed', old.id
          using errcode = 'check_violation', constraint = 'ramp_orders_terms';
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`create trigger ramp_orders_check_state before insert or update on ramp_orders
    for each row execute function ramp_orders_check_state()`.execute(db);
  await sql`
    create function ramp_orders_log_state() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.state is distinct from old.state then
        insert into ramp_order_events (order_id, from_state, to_state, reason, occurred_at)
        values (new.id, case when tg_op = 'INSERT' then null else old.state end, new.state,
                new.state_reason, new.updated_at);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`create trigger ramp_orders_log_state after insert or update of state on ramp_orders
    for each row execute function ramp_orders_log_state()`.execute(db);
  await sql`create trigger ramp_order_events_append_only before update or delete on ramp_order_events
    for each row execute function exchange_refuse_change()`.execute(db);
  await sql`create trigger ramp_order_transitions_frozen before insert or update or delete on ramp_order_transitions
    for each statement execute function exchange_refuse_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table ramp_webhook_events`.execute(db);
  await sql`drop table ramp_order_events`.execute(db);
  await sql`drop table ramp_orders`.execute(db);
  await sql`drop table ramp_order_transitions`.execute(db);
  await sql`drop table ramp_quotes`.execute(db);
  await sql`drop function if exists ramp_orders_check_state()`.execute(db);
  await sql`drop function if exists ramp_orders_log_state()`.execute(db);
}
