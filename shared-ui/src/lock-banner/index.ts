export { LockBanner } from './lock-banner.tsx';
