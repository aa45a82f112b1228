import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { E2E_PORT } from '../support/e2e-env.ts';

/**
 * Passkeys in e2e: pages open as http://localhost (a passkey is bound to a domain, WEBAUTHN_RP_ID,
 * default localhost; browsers refuse an IP address as one), with a CDP virtual authenticator.
 */
export const LOCAL_ORIGIN = `http://localhost:${E2E_PORT}`;

/** CTAP2, internal transport, resident keys, user verification that always succeeds. */
export async function virtualAuthenticator(context: BrowserContext, page: Page): Promise<CDPSession> {
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return cdp;
}
