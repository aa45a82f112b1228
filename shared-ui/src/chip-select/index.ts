export { ChipSelect, type ChipSelectProps } from './chip-select.tsx';
