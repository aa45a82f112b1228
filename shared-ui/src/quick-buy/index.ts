export { QuickBuyButton } from './quick-buy-button.tsx';
