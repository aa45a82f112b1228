import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { NetworkCodeSchema } from '../catalogue/schemas.ts';

export const walletTypes = ['personal', 'exchange', 'other'] as const;
/** Entries per user: plenty for a person, a bound for the table and the list response. */
export const ADDRESS_BOOK_LIMIT = 200;

const fields = {
  name: Type.String({ minLength: 1, maxLength: 40 }),
  walletType: StringEnum(walletTypes),
  network: NetworkCodeSchema,
  address: Type.String({ minLength: 1, maxLength: 100, description: 'Validated for the network' }),
  remark: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
};

export const AddressBookInput = Type.Object(fields, { additionalProperties: false });
export type AddressBookInput = Static<typeof AddressBookInput>;

export const AddressBookEntry = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    name: fields.name,
    walletType: fields.walletType,
    network: fields.network,
    address: Type.String(),
    remark: Type.Union([Type.String(), Type.Null()]),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
    trusted: Type.Boolean({ description: 'Marked trusted for the withdrawal allowlist' }),
    usableAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When a trusted entry is usable under the allowlist (its hold ends); null when not trusted',
    }),
  },
  { additionalProperties: false },
);
export type AddressBookEntry = Static<typeof AddressBookEntry>;

export const AddressBookList = Type.Object(
  { entries: Type.Array(AddressBookEntry), limit: Type.Integer() },
  { additionalProperties: false },
);
export const AddressBookQuery = Type.Object(
  { network: Type.Optional(NetworkCodeSchema) },
  { additionalProperties: false },
);
export const EntryParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
