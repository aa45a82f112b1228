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
import { totpCode } from './totp.ts';

/** Withdrawals and sends of a user with an authenticator app ask for its code too (step-up, ASVS 7.5.3). */
const h = useWalletHarness();
const DAY_MS = 24 * 3_600_000;

async function withTotp(user: WalletUser): Promise<string> {
  const before = h.sink.messages.length;
  const start = await post(h, user, '/api/me/security/totp', {});
  const { secret } = start.json() as { secret: string };
  const confirm = await post(h, user, '/api/me/security/totp/confirm', { code: totpCode(secret, h.clock.now()) });
  expect(confirm.statusCode).toBe(200);
  await h.sink.waitFor(user.email, { after: before }); // the "app turned on" notice, before any code mail
  return secret;
}

/** Moves past the 24 h hold the new factor started, keeping the session alive. */
async function pastHold(user: WalletUser) {
  for (let left = DAY_MS + 60_000; left > 0; left -= 20 * 60_000) {
    h.clock.advance(Math.min(left, 20 * 60_000));
    await h.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: user.cookie } });
  }
}

describe('step-up with the authenticator app', () => {
  it('a withdrawal and a send need the code when the app is on; the e-mail code alone is refused', async () => {
    const [a, b] = [await newUser(h), await newUser(h)];
    await fund(h, a.user.id, 'USDT', 100_000_000n);
    const secret = await withTotp(a);
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
    // Adding the factor held outflows: 23:59 later still held.
    expect((await withdraw({ totpCode: totpCode(secret, h.clock.now()) })).json().code).toBe('OUTFLOW_HOLD');
    await pastHold(a);
    expect((await withdraw({})).json().code).toBe('FACTOR_REQUIRED');
    expect((await send({})).json().code).toBe('FACTOR_REQUIRED');
    expect(
      (await send({ totpCode: '000000' === totpCode(secret, h.clock.now()) ? '111111' : '000000' })).json().code,
    ).toBe('WRONG_FACTOR_CODE');
    expect(await balance(h, a, 'USDT')).toEqual({ available: 100_000_000n, locked: 0n });

    const placed = await withdraw({ totpCode: totpCode(secret, h.clock.now()) });
    expect(placed.statusCode).toBe(201);
    // The same code again (same 30 s step) is a replay.
    expect((await send({ totpCode: totpCode(secret, h.clock.now()) })).json().code).toBe('FACTOR_CODE_USED');
    h.clock.advance(30_000);
    expect((await send({ totpCode: totpCode(secret, h.clock.now()) })).statusCode).toBe(201);
  });
});
