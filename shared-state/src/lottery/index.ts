export { drawMessage, drawPrizeIndex, type PrizeWeight, prizeIndexFromMac, sha256Hex, verifyDraw } from './lottery.ts';
