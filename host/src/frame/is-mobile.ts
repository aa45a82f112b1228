import { isMobileUserAgent } from '@cw/shared-state/device';

export { isMobileUserAgent };

export const FRAME_WIDTH_PX = 480;
export const FRAME_MARGIN_PX = 20;

/** Desktop browsers on a screen wider than the frame get the centred frame. */
export function shouldFrame(userAgent: string, windowWidthPx: number): boolean {
  return !isMobileUserAgent(userAgent) && windowWidthPx > FRAME_WIDTH_PX;
}
