/** Mobile user agents, as the specification lists them. */
const MOBILE_AGENT = /Android|iPhone|SymbianOS|Windows Phone|iPad|iPod/;

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_AGENT.test(userAgent);
}

export const FRAME_WIDTH_PX = 480;
export const FRAME_MARGIN_PX = 20;

/** Desktop browsers on a screen wider than the frame get the centred frame. */
export function shouldFrame(userAgent: string, windowWidthPx: number): boolean {
  return !isMobileUserAgent(userAgent) && windowWidthPx > FRAME_WIDTH_PX;
}
