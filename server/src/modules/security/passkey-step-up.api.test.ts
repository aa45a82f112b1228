import { describe, expect, it } from 'vitest';
import {
  balance,
  ETH_ADDRESS,
  fund,
  key,
  newUser,
  post,
  transferCode,
  useWalletHarness,
  type WalletUser,
  withdrawCode,
} from '../withdrawals/test-helpers.ts';
import { SoftAuthenticator } from './soft-authenticator.ts';

/** Withdrawals and sends of a user with a passkey accept its answer as the step-up (ASVS 7.5.3). */
const h = useWalletHarness();
const DAY_MS = 24 * 3_600_000;

async function withPasskey(user: WalletUser): Promise<SoftAuthenticator> {
  const authenticator = new SoftAuthenticator();
  const before = h.sink.messages.length;
  const options = (await post(h, user, '/api/me/security/passkeys/options', {})).json();
  const added = await post(h, user, '/api/me/security/passkeys', {
    name: 'Phone',
    response: authenticator.register(options),
  });
  expect(added.statusCode, added.body).toBe(201);
  await h.sink.waitFor(user.email, { after: before }); // the "passkey added" notice, before any code mail
  return authenticator;
}

async function pastHold(user: WalletUser) {
  for (let left = DAY_MS + 60_000; left > 0; left -= 20 * 60_000) {
    h.clock.advance(Math.min(left, 20 * 60_000));
    await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
  }
}

describe('step-up with a passkey', () => {
  it('a withdrawal and a send take a passkey answer; without one, or with a used one, they are refused', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 100_000_000n);
    const authenticator = await withPasskey(a);
    const challenge = async () => (await post(h, a, '/api/me/security/passkeys/challenge', {})).json();
    const withdraw = async (extra: object) =>
      post(h, a, '/api/wallet/withdrawals', {
        coin: 'USDT',
        network: 'ethereum',
        address: ETH_ADDRESS,
        amountMinor: '20000000',
        idempotencyKey: key(),
        emailCode: await withdrawCode(h, a),
        ...extra,
      });
    const send = async (extra: object) =>
      post(h, a, '/api/wallet/sends', {
        coin: 'USDT',
        amountMinor: '15000000',
        recipientKind: 'email',
        recipient: b.email,
        idempotencyKey: key(),
        emailCode: await transferCode(h, a),
        ...extra,
      });
    // Adding the passkey held outflows for 24 h.
    expect((await withdraw({ passkey: authenticator.authenticate(await challenge()) })).json().code).toBe(
      'OUTFLOW_HOLD',
    );
    await pastHold(a);
    expect((await withdraw({})).json().code).toBe('FACTOR_REQUIRED');
    expect((await send({})).json().code).toBe('FACTOR_REQUIRED');
    // A re-authentication answer is not a money step-up.
    const reauth = (await post(h, a, '/api/me/security/passkeys/challenge', { purpose: 'reauth' })).json();
    expect((await withdraw({ passkey: authenticator.authenticate(reauth) })).json().code).toBe(
      'PASSKEY_CHALLENGE_INVALID',
    );
    expect(await balance(h, a, 'USDT')).toEqual({ available: 100_000_000n, locked: 0n });

    const answer = authenticator.authenticate(await challenge());
    const placed = await withdraw({ passkey: answer });
    expect(placed.statusCode, placed.body).toBe(201);
    // The same answer again: its challenge is spent.
    expect((await send({ passkey: answer })).json().code).toBe('PASSKEY_CHALLENGE_INVALID');
    const sent = await send({ passkey: authenticator.authenticate(await challenge()) });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(await balance(h, a, 'USDT')).toEqual({ available: 65_000_000n, locked: 20_000_000n });
  });
});
