export { CountdownButton, type CountdownButtonProps } from './countdown-button.tsx';
export { useCountdown } from './use-countdown.ts';
