export {
  checkDecimalInput,
  clampDecimal,
  compareDecimal,
  type DecimalInput,
  normalizeDecimal,
  sanitizeDecimalInput,
} from './decimal.ts';
export { NumberInput, type NumberInputProps } from './number-input.tsx';
