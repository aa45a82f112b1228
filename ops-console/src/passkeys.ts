import { api, type paths, unwrap } from '@cw/shared-state/api';
import { browserSupportsWebAuthn, startAuthentication, startRegistration } from '@simplewebauthn/browser';

/**
 * Operators' passkeys in the console: bound to the console's own origin and host name (the server
 * checks both), never the app's. Every ceremony asks the server for a single-use challenge.
 */
type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];
type JsonBody<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
type Answer = JsonBody<'/api/ops/passkey/session'>['response'];
type Registration = JsonBody<'/api/ops/me/passkeys'>['response'];

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/** Sign-in with a passkey alone: a discoverable credential with user verification. */
export async function signInWithPasskey() {
  const optionsJSON = (await unwrap(api.POST('/api/ops/passkey/options'))) as RequestOptions;
  const answer = await startAuthentication({ optionsJSON });
  return unwrap(api.POST('/api/ops/passkey/session', { body: { response: answer as Answer } }));
}

/** Adds a passkey: `totpCode` is the step-up (not needed right after signing in or enrolling). */
export async function addPasskey(name: string, totpCode: string) {
  const body = totpCode === '' ? {} : { totpCode };
  const optionsJSON = (await unwrap(api.POST('/api/ops/me/passkeys/options', { body }))) as CreationOptions;
  const answer = await startRegistration({ optionsJSON });
  return unwrap(api.POST('/api/ops/me/passkeys', { body: { name, response: answer as Registration } }));
}

export const listPasskeys = () => unwrap(api.GET('/api/ops/me/passkeys'));
export const removePasskey = (id: string) =>
  unwrap(api.DELETE('/api/ops/me/passkeys/{id}', { params: { path: { id } } }));
export type OperatorPasskey = Awaited<ReturnType<typeof listPasskeys>>['passkeys'][number];
