import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app.ts';
import { buildTestApp, createUser, TEST_USER_HEADER } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { networkCodes } from '../catalogue/catalogue.ts';
import type { EvmChains } from '../catalogue/chains-file.ts';
import { accountXpubFromSeed, deriveDepositAddress } from '../chain/derive.ts';
import { TEST_CHAINS } from '../withdrawals/test-helpers.ts';

const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const xpubs = Object.fromEntries(networkCodes.map((n) => [n, accountXpubFromSeed(seed, n)]));
// buildTestApp's fixed clock.
const NOW = new Date('2030-01-02T03:04:05.000Z');

describe('deposit API', () => {
  const database = useTestDatabase();
  let app: App;
  // Changed by the test of a contract that is not configured (read on every request, as chains.json is).
  let chains: EvmChains = TEST_CHAINS;
  beforeAll(async () => {
    app = buildTestApp({ db: database.db, deposits: { xpubs }, wallet: { chains: () => chains } });
    await app.ready();
  });
  afterAll(() => app.close());

  const as = (userId: string) => ({ [TEST_USER_HEADER]: userId });

  it('GET /api/wallet/deposit-address: one address per user and network, never shared, with limits', async () => {
    const alice = await createUser(database.db);
    const bob = await createUser(database.db);
    const get = (userId: string, coin: string, network: string) =>
      app.inject({
        method: 'GET',
        url: `/api/wallet/deposit-address?coin=${coin}&network=${network}`,
        headers: as(userId),
      });

    const a1 = await get(alice, 'USDT', 'ethereum');
    expect(a1.statusCode).toBe(200);
    expect(a1.json()).toMatchObject({
      coin: 'USDT',
      network: 'ethereum',
      minDepositMinor: '1000',
      confirmations: 6,
      expectedArrivalMinutes: 4,
    });
    // Same network, other coin: same address (one per network). Second call: stable.
    expect((await get(alice, 'ETH', 'ethereum')).json().address).toBe(a1.json().address);
    const b1 = (await get(bob, 'ETH', 'ethereum')).json().address;
    expect(b1).not.toBe(a1.json().address);
    const indexes = [a1.json().address, b1].map((address) =>
      [0, 1, 2, 3].find((i) => deriveDepositAddress('ethereum', xpubs.ethereum as string, i) === address),
    );
    expect(indexes.sort()).toEqual([0, 1]);

    const btc = (await get(alice, 'BTC', 'bitcoin')).json();
    expect(btc.address).toMatch(/^bc1q/);
    expect((await get(alice, 'TRX', 'tron')).json().address).toMatch(/^T/);
    expect((await get(alice, 'DOGE', 'dogecoin')).json().address).toMatch(/^D/);
  });

  it('concurrent first requests of one user get one address', async () => {
    const carol = await createUser(database.db);
    const replies = await Promise.all(
      Array.from({ length: 8 }, () =>
        app.inject({ method: 'GET', url: '/api/wallet/deposit-address?coin=BNB&network=bsc', headers: as(carol) }),
      ),
    );
    expect(new Set(replies.map((r) => r.json().address)).size).toBe(1);
  });

  it('a pair that is not offered gives DEPOSIT_DISABLED; no session gives 401', async () => {
    const dave = await createUser(database.db);
    const r = await app.inject({
      method: 'GET',
      url: '/api/wallet/deposit-address?coin=BTC&network=tron',
      headers: as(dave),
    });
    expect(r.statusCode).toBe(409);
    expect(r.json().code).toBe('DEPOSIT_DISABLED');
    const anon = await app.inject({ method: 'GET', url: '/api/wallet/deposit-address?coin=BTC&network=bitcoin' });
    expect(anon.statusCode).toBe(401);
  });

  it('a token whose contract is not configured gets no address: its deposits would never be seen (issue 40)', async () => {
    const gina = await createUser(database.db);
    const get = (coin: string) =>
      app.inject({ method: 'GET', url: `/api/wallet/deposit-address?coin=${coin}&network=bsc`, headers: as(gina) });
    chains = { ...TEST_CHAINS, bsc: { chainId: 5631337, rpcUrl: 'http://127.0.0.1:9', tokens: {} } };
    try {
      const refused = await get('USDT');
      expect([refused.statusCode, refused.json().code]).toEqual([409, 'DEPOSIT_DISABLED']);
      const click = await app.inject({
        method: 'POST',
        url: '/api/wallet/deposits/confirm-click',
        headers: as(gina),
        payload: { coin: 'USDT', network: 'bsc' },
      });
      expect([click.statusCode, click.json().code]).toEqual([409, 'DEPOSIT_DISABLED']);
      // The native coin of the same network is not affected.
      expect((await get('BNB')).statusCode).toBe(200);
    } finally {
      chains = TEST_CHAINS;
    }
    expect((await get('USDT')).statusCode).toBe(200);
  });

  it('GET /api/wallet/deposits/:id: the owner sees state and confirmations; others get 404', async () => {
    const erin = await createUser(database.db);
    const frank = await createUser(database.db);
    const { id } = await database.db
      .insertInto('deposits')
      .values({
        user_id: erin,
        network: 'ethereum',
        coin: 'ETH',
        tx_hash: `0x${'ab'.repeat(32)}`,
        output_index: -1,
        from_address: null,
        to_address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
        chain_amount: '100000000000000',
        amount_minor: '100000000000000',
        block_number: '12',
        block_hash: `0x${'cd'.repeat(32)}`,
        confirmations: 6,
        required_confirmations: 6,
        state: 'failed',
        reason: 'below_minimum',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Found by the transaction that paid it (any case), for its owner only; 404 until the watcher saw it.
    const byTx = (userId: string, txHash: string) =>
      app.inject({
        method: 'GET',
        url: `/api/wallet/deposits/by-transaction?network=ethereum&txHash=${txHash}`,
        headers: as(userId),
      });
    expect((await byTx(erin, `0x${'AB'.repeat(32)}`)).json()).toMatchObject({ id });
    expect((await byTx(frank, `0x${'ab'.repeat(32)}`)).statusCode).toBe(404);
    expect((await byTx(erin, `0x${'12'.repeat(32)}`)).statusCode).toBe(404);
    expect((await byTx(erin, 'not-a-hash')).statusCode).toBe(400);
    const r = await app.inject({ method: 'GET', url: `/api/wallet/deposits/${id}`, headers: as(erin) });
    expect(r.statusCode).toBe(200);
    expect(r.json()).toMatchObject({
      id,
      state: 'failed',
      reason: 'below_minimum',
      confirmations: 6,
      requiredConfirmations: 6,
    });
    const other = await app.inject({ method: 'GET', url: `/api/wallet/deposits/${id}`, headers: as(frank) });
    expect(other.statusCode).toBe(404);
  });

  it('POST /api/wallet/deposits/confirm-click: 3 unmatched a UTC day, then DEPOSIT_CONFIRM_LIMIT; matched ones do not count', async () => {
    const gina = await createUser(database.db);
    const click = (coin = 'USDT', network = 'tron') =>
      app.inject({
        method: 'POST',
        url: '/api/wallet/deposits/confirm-click',
        headers: as(gina),
        payload: { coin, network },
      });
    // A deposit that arrived recently on ethereum matches clicks for ETH/ethereum.
    await database.db
      .insertInto('deposits')
      .values({
        user_id: gina,
        network: 'ethereum',
        coin: 'ETH',
        tx_hash: `0x${'ef'.repeat(32)}`,
        output_index: -1,
        from_address: null,
        to_address: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
        chain_amount: '5000000000000000',
        amount_minor: '5000000000000000',
        block_number: '15',
        block_hash: `0x${'12'.repeat(32)}`,
        required_confirmations: 6,
        state: 'confirming',
        created_at: new Date(NOW.getTime() - 60_000),
      })
      .execute();
    const matched = await click('ETH', 'ethereum');
    expect(matched.json()).toMatchObject({ matched: true, unmatchedLeftToday: 3 });
    expect((await click()).json()).toMatchObject({ matched: false, depositId: null, unmatchedLeftToday: 2 });
    expect((await click()).json().unmatchedLeftToday).toBe(1);
    expect((await click()).json().unmatchedLeftToday).toBe(0);
    const refused = await click();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('DEPOSIT_CONFIRM_LIMIT');
    expect(refused.json().details.retryAfterSeconds).toBe(24 * 3600 - (3 * 3600 + 4 * 60 + 5));
    // Clicks of yesterday do not count today.
    await database.db
      .updateTable('deposit_confirm_clicks')
      .set({ utc_day: '2030-01-01' } as never)
      .where('user_id', '=', gina)
      .execute();
    expect((await click()).statusCode).toBe(200);
  });
});
