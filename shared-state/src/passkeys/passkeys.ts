import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
} from '@simplewebauthn/browser';
import { api, type Me, unwrap } from '../api/index.ts';
import type { paths } from '../api/schema.d.ts';

/**
 * Passkeys (WebAuthn) in the browser: every ceremony asks the server for its options (a single-use
 * challenge), lets the browser talk to the authenticator, and hands the answer back. One module for
 * the host (sign-in, security settings) and the remotes (withdrawal, send and sell step-up).
 */
type RouteBody<P extends keyof paths> = paths[P] extends {
  post: { requestBody?: { content: { 'application/json': infer B } } };
}
  ? B
  : never;
/** The answer of navigator.credentials.get(), as the API takes it (the `passkey` field). */
export type PasskeyAnswer = NonNullable<RouteBody<'/api/auth/login/factor'>['passkey']>;
export type PasskeyInfo = Awaited<ReturnType<typeof listPasskeys>>['passkeys'][number];

type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];
type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];
/** The server's options, as the browser library types them (the API document types enums as strings). */
const asRequest = (options: unknown) => options as RequestOptions;

export const passkeysSupported = (): boolean => browserSupportsWebAuthn();
export const passkeyAutofillSupported = (): Promise<boolean> => browserSupportsWebAuthnAutofill();
/** Ends a waiting ceremony (the autofill one before a button-started one, or on leaving the screen). */
export const cancelPasskeyCeremony = (): void => WebAuthnAbortService.cancelCeremony();

/**
 * A step-up answer: the challenge of the signed-in account's passkeys, answered by one of them.
 * `reauth` for a re-authentication, `step_up` for a money action: the server keeps them apart.
 */
export async function passkeyAnswer(purpose: 'step_up' | 'reauth' = 'step_up'): Promise<PasskeyAnswer> {
  const optionsJSON = asRequest(await unwrap(api.POST('/api/me/security/passkeys/challenge', { body: { purpose } })));
  return (await startAuthentication({ optionsJSON })) as PasskeyAnswer;
}

/**
 * A password-less sign-in. `autofill`: conditional UI (the browser lists passkeys in the user name
 * field's suggestions and resolves when one is picked; it waits until then).
 */
/** A browser never seen before signs in, then waits for the e-mailed confirmation (issue 31). */
export interface DeviceConfirmationRequired {
  deviceConfirmationRequired: true;
}

/** The user, or the new-device step when this browser is not yet known. */
export type SignInResult = Me | DeviceConfirmationRequired;

const signedInAs = (result: { user: Me } | DeviceConfirmationRequired): SignInResult =>
  'user' in result ? result.user : { deviceConfirmationRequired: true };

export async function signInWithPasskey(options: { autofill?: boolean } = {}): Promise<SignInResult> {
  const optionsJSON = asRequest(await unwrap(api.POST('/api/auth/passkey/options')));
  const answer = await startAuthentication({ optionsJSON, useBrowserAutofill: options.autofill === true });
  return signedInAs(await unwrap(api.POST('/api/auth/passkey/login', { body: { response: answer as PasskeyAnswer } })));
}

/** The second step of a password sign-in, with a passkey. */
export async function loginFactorWithPasskey(): Promise<SignInResult> {
  const optionsJSON = asRequest(await unwrap(api.POST('/api/auth/login/factor/passkey-options')));
  const answer = (await startAuthentication({ optionsJSON })) as PasskeyAnswer;
  return signedInAs(await unwrap(api.POST('/api/auth/login/factor', { body: { passkey: answer } })));
}

export async function listPasskeys() {
  return unwrap(api.GET('/api/me/security/passkeys'));
}

/** Whether the signed-in account has a passkey (the step-up screens offer it then). */
export async function hasPasskeys(): Promise<boolean> {
  const status = await unwrap(api.GET('/api/me/security'));
  return status.passkeys > 0;
}

/** Registers a passkey on this device; recovery codes come back when it is the account's first factor. */
/** `endOtherSessions` (default true): the other sessions of the account end with the addition. */
export async function addPasskey(name: string, endOtherSessions = true) {
  const optionsJSON = (await unwrap(api.POST('/api/me/security/passkeys/options'))) as unknown as CreationOptions;
  const response = await startRegistration({ optionsJSON });
  return unwrap(
    api.POST('/api/me/security/passkeys', {
      body: {
        name: name.trim(),
        response: response as RouteBody<'/api/me/security/passkeys'>['response'],
        endOtherSessions,
      },
    }),
  );
}

export async function renamePasskey(id: string, name: string) {
  return unwrap(api.PATCH('/api/me/security/passkeys/{id}', { params: { path: { id } }, body: { name: name.trim() } }));
}

/** `endOtherSessions` (default true): the other sessions of the account end with the removal. */
export async function removePasskey(id: string, endOtherSessions = true): Promise<void> {
  await unwrap(api.DELETE('/api/me/security/passkeys/{id}', { params: { path: { id }, query: { endOtherSessions } } }));
}
