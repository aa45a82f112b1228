import { canonicalAddress, isValidAddress } from '@cw/shared-state/address';
import { type Kysely, type Selectable, sql } from 'kysely';
import type { AddressBookTable, Database } from '../../db/schema.ts';
import { AppError, ConflictError, NotFoundError } from '../../errors/app-error.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import { ADDRESS_BOOK_LIMIT, type AddressBookEntry, type AddressBookInput } from './schemas.ts';

type Row = Selectable<AddressBookTable>;

export interface AddressBookService {
  list(userId: string, network?: NetworkCode): Promise<AddressBookEntry[]>;
  create(userId: string, input: AddressBookInput): Promise<AddressBookEntry>;
  update(userId: string, id: string, input: AddressBookInput): Promise<AddressBookEntry>;
  remove(userId: string, id: string): Promise<void>;
}

function toEntry(row: Row): AddressBookEntry {
  return {
    id: row.id,
    name: row.name,
    walletType: row.wallet_type,
    network: row.network,
    address: row.address,
    remark: row.remark,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    trusted: row.usable_at !== null,
    usableAt: row.usable_at?.toISOString() ?? null,
  };
}

function checkedAddress(input: AddressBookInput): string {
  if (!isValidAddress(input.network, input.address))
    throw new AppError('ADDRESS_INVALID', 'Address invalid or mismatched with the network');
  return canonicalAddress(input.network, input.address);
}

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === '23505';
const duplicate = () => new ConflictError('This address is already in the address book');

/** The address book lives on the server so it follows the user across devices. */
export function createAddressBookService({ db, now }: { db: Kysely<Database>; now: () => Date }): AddressBookService {
  return {
    async list(userId, network) {
      let query = db.selectFrom('address_book').selectAll().where('user_id', '=', userId);
      if (network) query = query.where('network', '=', network);
      const rows = await query.orderBy('created_at', 'desc').orderBy('id').limit(ADDRESS_BOOK_LIMIT).execute();
      return rows.map(toEntry);
    },

    async create(userId, input) {
      const address = checkedAddress(input);
      try {
        return await db.transaction().execute(async (trx) => {
          // Serialise one user's inserts so the limit holds under concurrency.
          await sql`select pg_advisory_xact_lock(hashtext(${`address-book:${userId}`}))`.execute(trx);
          const { n } = await trx
            .selectFrom('address_book')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .where('user_id', '=', userId)
            .executeTakeFirstOrThrow();
          if (Number(n) >= ADDRESS_BOOK_LIMIT)
            throw new AppError('ADDRESS_BOOK_FULL', `At most ${ADDRESS_BOOK_LIMIT} addresses`);
          const at = now();
          const row = await trx
            .insertInto('address_book')
            .values({
              user_id: userId,
              name: input.name.trim(),
              wallet_type: input.walletType,
              network: input.network,
              address,
              remark: input.remark?.trim() || null,
              created_at: at,
              updated_at: at,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          return toEntry(row);
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate();
        throw err;
      }
    },

    async update(userId, id, input) {
      const address = checkedAddress(input);
      try {
        const at = now();
        const row = await db
          .updateTable('address_book')
          .set(() => {
            // A trusted entry given another address is a new destination: its allowlist hold starts
            // again (by the same length it had), so an edit cannot skip the hold of a fresh address.
            const moved = sql<boolean>`(trusted_at is not null and (network <> ${input.network} or address <> ${address}))`;
            return {
              name: input.name.trim(),
              wallet_type: input.walletType,
              network: input.network,
              address,
              remark: input.remark?.trim() || null,
              updated_at: at,
              // usable_at first: it reads the old trusted_at (SQL sees the old row on every right-hand side).
              usable_at: sql<Date | null>`case when ${moved} then ${at}::timestamptz + (usable_at - trusted_at) else usable_at end`,
              trusted_at: sql<Date | null>`case when ${moved} then ${at}::timestamptz else trusted_at end`,
            };
          })
          .where('id', '=', id)
          .where('user_id', '=', userId)
          .returningAll()
          .executeTakeFirst();
        if (!row) throw new NotFoundError('No such address book entry');
        return toEntry(row);
      } catch (err) {
        if (isUniqueViolation(err)) throw duplicate();
        throw err;
      }
    },

    async remove(userId, id) {
      const result = await db
        .deleteFrom('address_book')
        .where('id', '=', id)
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (result.numDeletedRows === 0n) throw new NotFoundError('No such address book entry');
    },
  };
}
