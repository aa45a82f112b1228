export { TapAmount, type TapAmountProps } from './tap-amount.tsx';
