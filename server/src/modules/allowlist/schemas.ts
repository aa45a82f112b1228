import { Type } from 'typebox';

export const AllowlistStatus = Type.Object(
  {
    on: Type.Boolean({ description: 'Withdrawals and sends go only to trusted address-book entries past their hold' }),
    offAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When a requested turn-off takes effect (the allowlist holds until then); null when none',
    }),
    holdHours: Type.Number({ description: 'The hold of a newly trusted entry and of a turn-off, in hours' }),
  },
  { additionalProperties: false },
);

export const AllowlistBody = Type.Object(
  { on: Type.Boolean({ description: 'true: on at once; false: off after the hold' }) },
  { additionalProperties: false },
);

export const TrustBody = Type.Object(
  { trusted: Type.Boolean({ description: 'true starts the entry hold; false is at once' }) },
  { additionalProperties: false },
);

export const TrustResult = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    trusted: Type.Boolean(),
    usableAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { additionalProperties: false },
);

export const EntryParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });
