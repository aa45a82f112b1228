import { type Static, Type } from 'typebox';
import { StringEnum } from '../../schema/string-enum.ts';
import { coinCodes } from '../catalogue/catalogue.ts';

const minorUnits = (description: string) =>
  Type.String({ pattern: '^(0|[1-9]\\d{0,77})$', description: `${description}; decimal string of minor units` });

export const Balance = Type.Object(
  {
    asset: StringEnum(coinCodes),
    availableMinor: minorUnits('Spendable'),
    lockedMinor: minorUnits('Reserved by pending withdrawals and orders'),
  },
  { $id: 'Balance', additionalProperties: false },
);
export type Balance = Static<typeof Balance>;

export const Balances = Type.Array(Type.Unsafe<Balance>(Type.Ref('Balance')));
