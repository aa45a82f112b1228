export { copyText, writeClipboard } from './copy-text.ts';
