/**
 * passkey_verify_p99_ms for `npm run bench:auth`: the server's verification of a passkey assertion
 * (clientDataJSON, challenge, origin, RP ID hash, flags, counter, ES256 signature over
 * authenticatorData ‖ hash(clientData)), timed in-process on real assertions from the tests' software
 * authenticator, called as both passkey services call it: `checkedAssertion(() => verifyAssertion(...))`
 * with an async single-use challenge callback. The ceremony's database work (the credential row, the
 * challenge's delete, the counter update: indexed statements) is not in it. Target: p99 <= 5 ms.
 *
 * The library's own `verifyAuthenticationResponse` is timed alternately on the same kind of answers and
 * logged beside it (not a figure): it is what the server ran before assertion-verify.ts. Its tail was its
 * three Web Crypto calls (two digests and the signature check), each a hop through libuv's thread pool
 * and back that waits for the OS to run two threads; on two shared cores at load average 6-10 that made
 * its p99 12-20 ms, against 0.6-2.8 ms for the synchronous node:crypto path in the same minutes.
 */
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { verifyAssertion } from '../src/modules/security/assertion-verify.ts';
import { checkedAssertion } from '../src/modules/security/passkey-answers.ts';
import { SoftAuthenticator } from '../src/modules/security/soft-authenticator.ts';

const ORIGIN = 'http://localhost:8080';
const RP_ID = 'localhost';

/** Sorted verification times (ms) of the server's path and, alternately, of the library's. */
export async function passkeyVerifyTimes(samples = 2000): Promise<{ server: number[]; library: number[] }> {
  const key = new SoftAuthenticator(ORIGIN);
  const creation = await generateRegistrationOptions({
    rpName: 'bench',
    rpID: RP_ID,
    userName: 'bench',
    userID: new TextEncoder().encode('bench-user'),
    supportedAlgorithmIDs: [-8, -7, -257],
  });
  const registered = await verifyRegistrationResponse({
    response: key.register(creation),
    expectedChallenge: creation.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    supportedAlgorithmIDs: [-8, -7, -257],
  });
  if (!registered.verified) throw new Error('bench passkey did not register');
  const credential = { ...registered.registrationInfo.credential };
  const times = { server: [] as number[], library: [] as number[] };
  for (let i = 0; i < 2 * (samples + 50); i++) {
    // Alternate which one runs first, so that neither always follows the other's garbage.
    const which = (i + Math.floor(i / 2)) % 2 === 0 ? 'server' : 'library';
    const options = await generateAuthenticationOptions({ rpID: RP_ID, userVerification: 'required' });
    const response = key.authenticate(options);
    const state = { consumed: false };
    const check = {
      response,
      // The server's callback deletes the challenge row; here it only compares.
      expectedChallenge: async (challenge: string) => {
        state.consumed = challenge === options.challenge;
        return state.consumed;
      },
      expectedOrigin: ORIGIN,
      expectedRPID: RP_ID,
      credential,
      requireUserVerification: true,
    };
    const started = performance.now();
    const result = await checkedAssertion(
      () => (which === 'server' ? verifyAssertion(check) : verifyAuthenticationResponse(check)),
      state,
    );
    const took = performance.now() - started;
    if (result.kind !== 'ok') throw new Error(`bench assertion did not verify (${result.kind})`);
    credential.counter = result.newCounter;
    if (i >= 100) times[which].push(took); // the first ones warm the JIT and the key import
  }
  return { server: times.server.sort((a, b) => a - b), library: times.library.sort((a, b) => a - b) };
}
