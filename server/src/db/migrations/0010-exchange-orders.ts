import { type Kysely, sql } from 'kysely';

/**
 * Exchange orders (modules/exchange).
 *
 * - `exchange_rate_locks`: a fixed rate offered to a user for 20 minutes, used by at most one order.
 * - `exchange_orders`: one row per order; `state` moves only along `exchange_order_transitions`.
 * - `exchange_order_transitions`: the allowed (from, to) pairs, a snapshot of `states.ts` (the one
 *   definition the code uses) as it was when this migration was written: migrations describe the
 *   schema of their time and import no app code. `states.test.ts` fails if the two ever differ, so a
 *   change of the state table comes with a migration rewriting these rows. A BEFORE trigger refuses an insert in another state than 'new' and any state change
 *   not listed, whoever issues it (service, ops script or a hand-typed UPDATE).
 * - `exchange_order_events`: append-only log of every state change, written by an AFTER trigger so
 *   no code path can change a state without leaving the event.
 */
const exchangeStates = [
  'new',
  'waiting',
  'confirming',
  'exchanging',
  'sending',
  'completed',
  'expired',
  'refunded',
  'failed',
  'suspended',
] as const;
const allowedPairs: ReadonlyArray<readonly [string, string]> = [
  ['new', 'waiting'],
  ['new', 'failed'],
  ['waiting', 'confirming'],
  ['waiting', 'expired'],
  ['waiting', 'suspended'],
  ['waiting', 'failed'],
  ['confirming', 'exchanging'],
  ['confirming', 'suspended'],
  ['confirming', 'failed'],
  ['exchanging', 'sending'],
  ['exchanging', 'refunded'],
  ['exchanging', 'suspended'],
  ['exchanging', 'failed'],
  ['sending', 'completed'],
  ['sending', 'failed'],
  ['expired', 'refunded'],
  ['suspended', 'waiting'],
  ['suspended', 'confirming'],
  ['suspended', 'exchanging'],
  ['suspended', 'refunded'],
  ['suspended', 'failed'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const stateList = sql.join(exchangeStates.map((s) => sql.lit(s)));

  await db.schema
    .createTable('exchange_rate_locks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('send_coin', 'text', (c) => c.notNull())
    .addColumn('send_network', 'text', (c) => c.notNull())
    .addColumn('receive_coin', 'text', (c) => c.notNull())
    .addColumn('receive_network', 'text', (c) => c.notNull())
    .addColumn('send_amount_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`send_amount_minor > 0`))
    .addColumn('rate_scaled', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`rate_scaled > 0`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint('exchange_rate_locks_window', sql`expires_at > created_at`)
    .execute();

  await db.schema
    .createTable('exchange_order_transitions')
    .addColumn('from_state', 'text', (c) => c.notNull())
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('exchange_order_transitions_pk', ['from_state', 'to_state'])
    .execute();
  await db
    .withTables<{ exchange_order_transitions: { from_state: string; to_state: string } }>()
    .insertInto('exchange_order_transitions')
    .values(allowedPairs.map(([from_state, to_state]) => ({ from_state, to_state })))
    .execute();

  await db.schema
    .createTable('exchange_orders')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id'))
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('new').check(sql`state in (${stateList})`))
    .addColumn('state_reason', 'text')
    .addColumn('rate_type', 'text', (c) => c.notNull().check(sql`rate_type in ('float', 'fixed')`))
    .addColumn('send_coin', 'text', (c) => c.notNull())
    .addColumn('send_network', 'text', (c) => c.notNull())
    .addColumn('receive_coin', 'text', (c) => c.notNull())
    .addColumn('receive_network', 'text', (c) => c.notNull())
    .addColumn('send_amount_minor', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`send_amount_minor > 0`))
    // Receive-coin whole units per send-coin whole unit, times 10^18 (RATE_SCALE).
    .addColumn('rate_scaled', sql`numeric(78, 0)`, (c) => c.notNull().check(sql`rate_scaled > 0`))
    .addColumn('estimated_receive_minor', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('service_charge_minor', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('network_fee_minor', sql`numeric(78, 0)`, (c) => c.notNull())
    .addColumn('rate_lock_id', 'uuid', (c) => c.unique().references('exchange_rate_locks.id'))
    .addColumn('deadline_at', 'timestamptz')
    .addColumn('receive_address', 'text', (c) => c.notNull())
    .addColumn('refund_address', 'text')
    .addColumn('deposit_address', 'text')
    .addColumn('deposit_index', 'integer')
    .addColumn('deposit_tx_hash', 'text')
    .addColumn('deposit_amount_minor', sql`numeric(78, 0)`)
    .addColumn('deposit_confirmations', 'integer')
    .addColumn('deposit_seen_at', 'timestamptz')
    .addColumn('deposit_confirmed_at', 'timestamptz')
    .addColumn('final_rate_scaled', sql`numeric(78, 0)`)
    .addColumn('receive_amount_minor', sql`numeric(78, 0)`)
    .addColumn('payout_address', 'text')
    .addColumn('payout_coin', 'text')
    .addColumn('payout_network', 'text')
    .addColumn('payout_amount_minor', sql`numeric(78, 0)`)
    .addColumn('payout_request_id', 'text')
    .addColumn('payout_tx_hash', 'text')
    .addColumn('payout_sent_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
    .addCheckConstraint(
      'exchange_orders_fixed_has_refund_and_deadline',
      sql`rate_type = 'float' or (refund_address is not null and deadline_at is not null and rate_lock_id is not null)`,
    )
    .addCheckConstraint(
      'exchange_orders_amounts_non_negative',
      sql`estimated_receive_minor >= 0 and service_charge_minor >= 0 and network_fee_minor >= 0
          and coalesce(deposit_amount_minor, 0) >= 0 and coalesce(receive_amount_minor, 0) >= 0
          and coalesce(payout_amount_minor, 0) >= 0`,
    )
    .addCheckConstraint(
      'exchange_orders_completed_has_hashes',
      sql`state <> 'completed' or (deposit_tx_hash is not null and payout_tx_hash is not null)`,
    )
    .execute();
  await db.schema
    .createIndex('exchange_orders_user_idx')
    .on('exchange_orders')
    .columns(['user_id', 'created_at desc'])
    .execute();
  await db.schema
    .createIndex('exchange_orders_state_idx')
    .on('exchange_orders')
    .columns(['state', 'updated_at'])
    .execute();
  await db.schema
    .createIndex('exchange_orders_deposit_address_idx')
    .on('exchange_orders')
    .columns(['send_network', 'deposit_address'])
    .unique()
    .where(sql.ref('deposit_address'), 'is not', null)
    .execute();
  // Derivation indexes of the orders' deposit addresses (their own branch, see deposit-address.ts).
  await sql`create sequence exchange_order_deposit_index_seq as integer minvalue 0 start 0`.execute(db);

  await db.schema
    .createTable('exchange_order_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('order_id', 'uuid', (c) => c.notNull().references('exchange_orders.id'))
    .addColumn('from_state', 'text')
    .addColumn('to_state', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('exchange_order_events_order_idx')
    .on('exchange_order_events')
    .columns(['order_id', 'id'])
    .execute();

  await sql`
    create function exchange_orders_check_state() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' then
        if new.state <> 'new' then
          raise exception 'exchange order must be created in state new, not %', new.state
            using errcode = 'check_violation', constraint = 'exchange_orders_transition';
        end if;
      elsif new.state is distinct from old.state then
        if not exists (select 1 from exchange_order_transitions t
                       where t.from_state = old.state and t.to_state = new.state) then
          raise exception 'exchange order % may not go from % to %', old.id, old.state, new.state
            using errcode = 'check_violation', constraint = 'exchange_orders_transition';
        end if;
      end if;
      return new;
    end
    $$`.execute(db);
  await sql`
    create trigger exchange_orders_check_state before insert or update of state on exchange_orders
    for each row execute function exchange_orders_check_state()`.execute(db);

  await sql`
    create function exchange_orders_log_state() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.state is distinct from old.state then
        insert into exchange_order_events (order_id, from_state, to_state, reason, occurred_at)
        values (new.id, case when tg_op = 'INSERT' then null else old.state end, new.state,
                new.state_reason, new.updated_at);
      end if;
      return null;
    end
    $$`.execute(db);
  await sql`
    create trigger exchange_orders_log_state after insert or update of state on exchange_orders
    for each row execute function exchange_orders_log_state()`.execute(db);

  await sql`
    create function exchange_refuse_change() returns trigger language plpgsql as $$
    begin
      raise exception '% refuses % (append-only log or frozen table)', tg_table_name, tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger exchange_order_events_no_update_delete before update or delete on exchange_order_events
    for each row execute function exchange_refuse_change()`.execute(db);
  await sql`
    create trigger exchange_order_events_no_truncate before truncate on exchange_order_events
    for each statement execute function exchange_refuse_change()`.execute(db);
  // The allowed pairs change only by migration.
  await sql`
    create trigger exchange_order_transitions_frozen before insert or update or delete on exchange_order_transitions
    for each statement execute function exchange_refuse_change()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('exchange_order_events').execute();
  await db.schema.dropTable('exchange_orders').execute();
  await db.schema.dropTable('exchange_order_transitions').execute();
  await db.schema.dropTable('exchange_rate_locks').execute();
  await sql`drop sequence if exists exchange_order_deposit_index_seq`.execute(db);
  await sql`drop function if exists exchange_orders_check_state()`.execute(db);
  await sql`drop function if exists exchange_orders_log_state()`.execute(db);
  await sql`drop function if exists exchange_refuse_change()`.execute(db);
}
