import { type TEnum, Type } from 'typebox';

/**
 * `Type.Enum` of strings that also declares `type: "string"`, so the OpenAPI
 * document and the generated client types say string unions, not unknown.
 */
export function StringEnum<const Values extends string[]>(
  values: readonly [...Values],
  options: { description?: string; default?: Values[number] } = {},
): TEnum<Values> {
  return Type.Enum(values, { ...options, type: 'string' });
}
