export { QrCode, type QrCodeProps } from './qr-code.tsx';
