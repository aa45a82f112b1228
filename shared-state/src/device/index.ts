/**
 * Which browsers get the phone layout. Pure (no DOM): the host's frame decides its layout with it, and
 * the server uses the same rule to pick the pre-rendered landing page (which is the phone layout).
 */

/** Mobile user agents, as the specification lists them. */
const MOBILE_AGENT = /Android|iPhone|SymbianOS|Windows Phone|iPad|iPod/;

export function isMobileUserAgent(userAgent: string): boolean {
  return MOBILE_AGENT.test(userAgent);
}
