import { type Static, Type } from 'typebox';

export const OperatorSignInBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 32 }), password: Type.String({ minLength: 1, maxLength: 200 }) },
  { additionalProperties: false },
);
export type OperatorSignInBody = Static<typeof OperatorSignInBody>;

export const OperatorSession = Type.Object(
  { operator: Type.Union([Type.Object({ name: Type.String() }, { additionalProperties: false }), Type.Null()]) },
  { additionalProperties: false },
);
