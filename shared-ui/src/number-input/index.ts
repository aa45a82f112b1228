export { clampDecimal, compareDecimal, normalizeDecimal, sanitizeDecimalInput } from './decimal.ts';
export { NumberInput, type NumberInputProps } from './number-input.tsx';
