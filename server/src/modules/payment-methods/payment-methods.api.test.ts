import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { listAudit } from '../audit/repository.ts';
import { registerUser as registerNew, setFundPassword, useAuthHarness } from '../auth/test-helpers.ts';
import { createSealer } from './sealing.ts';
import { sealBinding } from './service.ts';
import { knownIfsc } from './validate.ts';

const key = randomBytes(32);
const bank = {
  kind: 'bank_in',
  accountNumber: '123456789012',
  confirmAccountNumber: '1234 5678 9012',
  ifsc: 'hdfc0000001',
  holder: 'Asha Kumari',
  bankName: 'HDFC Bank',
  identityType: 'aadhaar',
  identityNumber: '2341 2341 2346',
};

describe('payment methods', () => {
  const h = useAuthHarness({
    payouts: { key },
    auth: { codeLimits: { resendAfterSeconds: 0, perAddressPerHour: 10_000, perIpPerHour: 10_000 } },
  });
  /** Adding takes the fund password (issue 38): every user here sets FUND_PASSWORD first. */
  const FUND_PASSWORD = '739164';
  const add = (cookie: string, payload: object) =>
    h.app.inject({
      method: 'POST',
      url: '/api/payment-methods',
      headers: { cookie },
      payload: { ...payload, fundPassword: FUND_PASSWORD },
    });
  const registerUser = async () => {
    const u = await registerNew(h);
    await setFundPassword(h, u, FUND_PASSWORD);
    return u;
  };

  it('checks the IFSC against the bank list offline', () => {
    expect(knownIfsc('HDFC0000001')).toBe(true);
    expect(knownIfsc('HDFC0654321')).toBe(false);
    expect(knownIfsc('ZZZZ0000001')).toBe(false);
  });

  it('adds an Indian bank account: numbers sealed, shown masked, audited', async () => {
    const u = await registerUser();
    const res = await add(u.cookie, bank);
    expect(res.statusCode).toBe(201);
    const method = res.json();
    expect(method).toMatchObject({
      kind: 'bank_in',
      active: true,
      shown: { account: '•••• 9012', ifsc: 'HDFC0000001', holder: 'Asha Kumari', identity: '•••• 2346' },
    });
    expect(res.body).not.toContain('123456789012');
    const row = await h.db
      .selectFrom('payment_methods')
      .selectAll()
      .where('id', '=', method.id)
      .executeTakeFirstOrThrow();
    expect(row.sealed?.toString('latin1')).not.toContain('123456789012');
    const sealer = createSealer(key);
    expect(sealer.open(row.sealed as Buffer, sealBinding(u.user.id, method.id))).toEqual({
      accountNumber: '123456789012',
      identityNumber: '234123412346',
    });
    // Bound to its owner and record: the same bytes do not open as another user's.
    expect(() => sealer.open(row.sealed as Buffer, sealBinding('someone-else', method.id))).toThrow();
    expect((await listAudit(h.db, { userId: u.user.id })).map((a) => a.event)).toContain('payment_method_added');
  });

  it('refuses bad details field by field and stores nothing', async () => {
    const u = await registerUser();
    const bad = await add(u.cookie, {
      ...bank,
      accountNumber: '12345678',
      confirmAccountNumber: '1234567',
      ifsc: 'HDFC1000001',
      identityNumber: '234123412347',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details.map((d: { field: string; rule: string }) => `${d.field}:${d.rule}`)).toEqual([
      'accountNumber:format',
      'confirmAccountNumber:mismatch',
      'ifsc:format',
      'identityNumber:aadhaar',
    ]);
    const unknown = await add(u.cookie, { ...bank, ifsc: 'HDFC0654321' });
    expect(unknown.json().details).toEqual([{ field: 'ifsc', rule: 'unknown', message: 'unknown' }]);
    const pix = await add(u.cookie, { kind: 'pix', keyType: 'cpf', key: '529.982.247-24', holder: 'Ana Souza' });
    expect(pix.json().details).toEqual([{ field: 'key', rule: 'cpf', message: 'cpf' }]);
    expect(
      (await h.app.inject({ method: 'GET', url: '/api/payment-methods', headers: { cookie: u.cookie } })).json().items,
    ).toEqual([]);
  });

  it('adds PIX (the 2026 alphanumeric CNPJ too), UPI and chat-app methods; activates and deactivates only your own', async () => {
    const u = await registerUser();
    const other = await registerUser();
    expect(
      (await add(u.cookie, { kind: 'pix', keyType: 'cnpj', key: '12.ABC.345/01DE-35', holder: 'Loja Azul' })).json(),
    ).toMatchObject({
      shown: { keyType: 'cnpj', key: '•••• DE35' },
    });
    expect(
      (await add(u.cookie, { kind: 'upi', upiId: 'asha.k@okhdfc', holder: 'Asha Kumari' })).json().shown.upiId,
    ).toBe('as•••@okhdfc');
    const chat = (await add(u.cookie, { kind: 'chat_app', app: 'whatsapp', handle: '+919876543210' })).json();
    // Turning a method on takes the fund password (issue 38 review item 7); off takes none.
    const toggle = (cookie: string, active: boolean) =>
      h.app.inject({
        method: 'PUT',
        url: `/api/payment-methods/${chat.id}/active`,
        headers: { cookie },
        payload: active ? { active, fundPassword: FUND_PASSWORD } : { active },
      });
    expect((await toggle(u.cookie, false)).json().active).toBe(false);
    expect((await toggle(other.cookie, true)).statusCode).toBe(404);
    expect((await toggle(u.cookie, true)).json().active).toBe(true);
    const events = (await listAudit(h.db, { userId: u.user.id })).map((a) => a.event);
    expect(events.filter((e) => e.startsWith('payment_method_'))).toEqual([
      'payment_method_added',
      'payment_method_added',
      'payment_method_added',
      'payment_method_deactivated',
      'payment_method_activated',
    ]);
  });

  it('turning a method back on takes the fund password: none or a wrong one leaves it off (issue 38 review item 7)', async () => {
    const u = await registerUser();
    const chat = (await add(u.cookie, { kind: 'chat_app', app: 'telegram', handle: '@thief_or_owner' })).json();
    const put = (payload: object) =>
      h.app.inject({
        method: 'PUT',
        url: `/api/payment-methods/${chat.id}/active`,
        headers: { cookie: u.cookie },
        payload,
      });
    expect((await put({ active: false })).json().active).toBe(false);
    const bare = await put({ active: true });
    expect(bare.statusCode).toBe(400);
    expect(bare.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ field: 'fundPassword' }] });
    const wrong = await put({ active: true, fundPassword: '111111' });
    expect(wrong.json()).toMatchObject({ code: 'WRONG_FUND_PASSWORD' });
    const listed = (
      await h.app.inject({ method: 'GET', url: '/api/payment-methods', headers: { cookie: u.cookie } })
    ).json();
    expect(listed.items.find((m: { id: string }) => m.id === chat.id).active).toBe(false);
    const on = await put({ active: true, fundPassword: FUND_PASSWORD });
    expect(on.statusCode).toBe(200);
    expect(on.json().active).toBe(true);
  });

  it('keeps at most 20 methods a user', async () => {
    const u = await registerUser();
    for (let i = 0; i < 20; i++) {
      expect((await add(u.cookie, { kind: 'chat_app', app: 'telegram', handle: `@user_${i}` })).statusCode).toBe(201);
    }
    const over = await add(u.cookie, { kind: 'chat_app', app: 'telegram', handle: '@one_more' });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'PAYMENT_METHOD_LIMIT', details: { limit: 20 } });
    // 21 adds, each checking the fund password with argon2: slow on a shared machine.
  }, 90_000);
});
