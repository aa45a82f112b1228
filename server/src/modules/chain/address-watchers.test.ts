import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEsploraWatcher } from './esplora-watcher.ts';
import { createTronWatcher } from './tron-watcher.ts';

/**
 * TronGrid and Esplora adapters against recorded responses (fixtures/*.json, written after the
 * documented response shapes) served from a loopback HTTP server.
 */
const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

type Route = (req: IncomingMessage, body: string) => { status?: number; body: string } | undefined;

function loopback(route: Route): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const answer = route(req, body);
      res.writeHead(answer?.status ?? (answer ? 200 : 404), { 'content-type': 'application/json' });
      res.end(answer?.body ?? '{"error":"not found"}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }),
    ),
  );
}

const BLOCK_840000 = '0000000000000000000320283a032748cef8227873ff4872689bf23f1cda83a5';

describe('Esplora watcher (bitcoin, dogecoin) on recorded responses', () => {
  const database = useTestDatabase();
  const chain = {
    tipHeight: 840000,
    hashes: new Map<number, string>([[840000, BLOCK_840000]]),
    txs: new Map<string, string>(),
  };
  let esplora: { server: Server; url: string };
  beforeAll(async () => {
    esplora = await loopback((req) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/blocks/tip/height') return { body: String(chain.tipHeight) };
      if (url.pathname === '/blocks/tip/hash') return { body: `${'0'.repeat(20)}${chain.tipHeight}`.padEnd(64, 'f') };
      const height = /^\/block-height\/(\d+)$/.exec(url.pathname);
      if (height) {
        const hash = chain.hashes.get(Number(height[1]));
        return hash ? { body: hash } : { status: 404, body: 'Block not found' };
      }
      const txs = /^\/address\/([^/]+)\/txs\/chain$/.exec(url.pathname);
      if (txs) return { body: chain.txs.get(decodeURIComponent(txs[1] ?? '')) ?? '[]' };
      return undefined;
    });
  });
  afterAll(() => new Promise<void>((r) => esplora.server.close(() => r())));

  it('bitcoin: a confirmed output to a deposit address is confirming at 1 block and credited once at 2; mempool ignored', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'bitcoin', accountXpubFromSeed(seed, 'bitcoin'));
    expect(address).toBe('bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu');
    chain.txs.set(address, fixture('esplora-address-txs.json'));
    const watcher = createEsploraWatcher({ db: database.db, network: 'bitcoin', baseUrl: esplora.url });

    await watcher.tick();
    let rows = await database.db.selectFrom('deposits').selectAll().where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      coin: 'BTC',
      output_index: 1,
      amount_minor: '150000',
      state: 'confirming',
      confirmations: 1,
    });
    expect(rows[0]?.from_address).toBe('bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4');

    chain.tipHeight = 840001;
    await watcher.tick();
    await watcher.tick();
    rows = await database.db.selectFrom('deposits').selectAll().where('user_id', '=', userId).execute();
    expect(rows[0]).toMatchObject({ state: 'successful', confirmations: 2 });
    expect(await balanceOf(database.db, 'user_available', userId, 'BTC')).toBe(150000n);
    const cursor = await database.db
      .selectFrom('chain_cursors')
      .selectAll()
      .where('network', '=', 'bitcoin')
      .executeTakeFirst();
    expect(cursor?.block_number).toBe('840001');
  });

  it('bitcoin: a block hash that changes under an unconfirmed deposit drops it (reorged)', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'bitcoin', accountXpubFromSeed(seed, 'bitcoin'));
    const blockHash = `00000000000000000001${'ab'.repeat(22)}`;
    chain.hashes.set(840002, blockHash);
    chain.tipHeight = 840002;
    chain.txs.set(
      address,
      JSON.stringify([
        {
          txid: 'f'.repeat(64),
          vin: [],
          vout: [{ scriptpubkey_address: address, value: 200000 }],
          status: { confirmed: true, block_height: 840002, block_hash: blockHash },
        },
      ]),
    );
    const watcher = createEsploraWatcher({ db: database.db, network: 'bitcoin', baseUrl: esplora.url });
    await watcher.tick();
    expect(
      (await database.db.selectFrom('deposits').select('state').where('user_id', '=', userId).executeTakeFirst())
        ?.state,
    ).toBe('confirming');
    // The block is replaced and the transaction is gone from the address.
    chain.hashes.set(840002, `00000000000000000001${'cd'.repeat(22)}`);
    chain.txs.set(address, '[]');
    const report = await watcher.tick();
    expect(report.reorgForkBlock).toBe(840001n);
    const row = await database.db
      .selectFrom('deposits')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'failed', reason: 'reorged' });
    chain.tipHeight = 840010;
    await watcher.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'BTC')).toBe(0n);
  });

  it('dogecoin: an amount above 2^53 satoshi-units is kept exactly (numbers parsed losslessly)', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'dogecoin', accountXpubFromSeed(seed, 'dogecoin'));
    chain.hashes.set(5_000_000, `${'1'.repeat(64)}`);
    chain.tipHeight = 5_000_010;
    // Written as raw JSON text: 9007199254740993 is not representable as a JavaScript number.
    chain.txs.set(
      address,
      `[{"txid":"${'e'.repeat(64)}","vin":[],"vout":[{"scriptpubkey_address":"${address}","value":9007199254740993}],"status":{"confirmed":true,"block_height":5000000,"block_hash":"${'1'.repeat(64)}"}}]`,
    );
    const watcher = createEsploraWatcher({ db: database.db, network: 'dogecoin', baseUrl: esplora.url });
    await watcher.tick();
    await watcher.tick();
    const row = await database.db
      .selectFrom('deposits')
      .selectAll()
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ coin: 'DOGE', chain_amount: '9007199254740993', state: 'successful' });
    expect(await balanceOf(database.db, 'user_available', userId, 'DOGE')).toBe(9007199254740993n);
  });
});

describe('TronGrid watcher on recorded responses', () => {
  const database = useTestDatabase();
  let trongrid: { server: Server; url: string };
  const requests: string[] = [];
  beforeAll(async () => {
    trongrid = await loopback((req, body) => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push(`${req.method} ${url.pathname}`);
      if (req.method === 'POST' && url.pathname === '/wallet/getnowblock') {
        return {
          body: JSON.stringify({
            blockID: `0000000003a2c0ca${'5'.repeat(48)}`,
            block_header: { raw_data: { number: 61000010, timestamp: 1713571800000 } },
          }),
        };
      }
      if (req.method === 'POST' && url.pathname === '/wallet/getblockbynum') {
        const { num } = JSON.parse(body) as { num: number };
        return { body: JSON.stringify({ blockID: `${num.toString(16).padStart(16, '0')}${'7'.repeat(48)}` }) };
      }
      if (req.method === 'POST' && url.pathname === '/wallet/gettransactioninfobyid') {
        const { value } = JSON.parse(body) as { value: string };
        return { body: JSON.stringify({ id: value, blockNumber: 61000007, receipt: { result: 'SUCCESS' } }) };
      }
      if (url.pathname === '/v1/accounts/TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH/transactions') {
        expect(url.searchParams.get('only_confirmed')).toBe('true');
        return { body: fixture('tron-account-transactions.json') };
      }
      if (url.pathname === '/v1/accounts/TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH/transactions/trc20') {
        return { body: fixture('tron-account-trc20.json') };
      }
      return undefined;
    });
  });
  afterAll(() => new Promise<void>((r) => trongrid.server.close(() => r())));

  it('credits TRX and catalogue TRC-20 transfers (1 confirmation), fails one below the minimum, skips reverted and unknown tokens', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'tron', accountXpubFromSeed(seed, 'tron'));
    expect(address).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    const watcher = createTronWatcher({ db: database.db, baseUrl: trongrid.url });
    await watcher.tick();
    await watcher.tick(); // a second pass over the same answers changes nothing
    const rows = await database.db
      .selectFrom('deposits')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('amount_minor')
      .execute();
    expect(rows.map((r) => [r.coin, r.amount_minor, r.state, r.reason])).toEqual([
      ['USDT', '500000', 'failed', 'below_minimum'],
      ['USDT', '12500000', 'successful', null],
      ['TRX', '25000000', 'successful', null],
    ]);
    const trx = rows.find((r) => r.coin === 'TRX');
    expect(trx).toMatchObject({ block_number: '61000005', from_address: expect.stringMatching(/^T/) });
    expect(await balanceOf(database.db, 'user_available', userId, 'TRX')).toBe(25_000_000n);
    expect(await balanceOf(database.db, 'user_available', userId, 'USDT')).toBe(12_500_000n);
    expect(requests).toContain('POST /wallet/getnowblock');
  });
});
