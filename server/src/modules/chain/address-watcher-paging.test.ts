import { sha256 } from '@noble/hashes/sha2';
import { base58check } from '@scure/base';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEsploraWatcher } from './esplora-watcher.ts';
import { type FakeEsplora, type FakeTronGrid, startFakeEsplora, startFakeTronGrid } from './fake-indexers.ts';
import { createTronWatcher } from './tron-watcher.ts';

/**
 * Issue 39 item 4: spam ("address poisoning") pushes a real deposit off the first page of an
 * address's history. The watchers page until a transaction they recorded, and TRON lists TRC-20
 * transfers per catalogue contract, so spam tokens never take a place on a page.
 */
const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const b58c = base58check(sha256);
const tronHex = (address: string) => Buffer.from(b58c.decode(address)).toString('hex');
const txid = (n: number) => n.toString(16).padStart(64, '0');
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const SPAM_TOKEN = 'TXLAQ63Xg1NAzckPwKHvzw7CSEmLMEqcdj';

describe('address watchers page past spam', () => {
  const database = useTestDatabase();
  let esplora: FakeEsplora;
  let trongrid: FakeTronGrid;
  beforeAll(async () => {
    esplora = await startFakeEsplora(900_100);
    trongrid = await startFakeTronGrid(62_000_000, tronHex);
  });
  afterAll(async () => {
    await esplora?.close();
    await trongrid?.close();
  });

  it('bitcoin: a deposit under 60 newer dust transactions (3 pages) is found; later ticks stop at a recorded one', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'bitcoin', accountXpubFromSeed(seed, 'bitcoin'));
    const dust = (n: number, height: number) => ({
      txid: txid(10_000 + n),
      vout: [{ scriptpubkey_address: address, value: 546 }],
      height,
    });
    const history = [];
    for (let i = 60; i >= 1; i--) history.push(dust(i, 900_050 + Math.floor(i / 2)));
    history.push({ txid: txid(1), vout: [{ scriptpubkey_address: address, value: 250_000 }], height: 900_010 });
    esplora.txs.set(address, history);
    const w = createEsploraWatcher({ db: database.db, network: 'bitcoin', baseUrl: esplora.url });
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'BTC')).toBe(250_000n);

    // 30 more dust transactions arrive: the next read stops at the first page holding a recorded one.
    for (let i = 61; i <= 90; i++) history.unshift(dust(i, 900_090));
    const before = esplora.requests.length;
    await w.tick();
    const pagesRead = esplora.requests.slice(before).filter((p) => p.startsWith(`/address/${address}/`));
    expect(pagesRead).toHaveLength(2);
    const rows = await database.db
      .selectFrom('deposits')
      .select(['state', 'reason'])
      .where('user_id', '=', userId)
      .execute();
    expect(rows).toHaveLength(91); // 90 dust outputs recorded as below the minimum, one credited
    expect(rows.filter((r) => r.state === 'successful')).toHaveLength(1);
  });

  it('tron: a USDT deposit under 300 spam-token transfers and a TRX deposit under 250 dust transfers are both found', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'tron', accountXpubFromSeed(seed, 'tron'));
    const spam = Array.from({ length: 300 }, (_, i) => ({
      txID: txid(20_000 + i),
      contract: SPAM_TOKEN,
      to: address,
      value: '100000000',
      height: 61_999_000 + i,
    }));
    trongrid.trc20.set(address, [
      ...spam.reverse(),
      { txID: txid(2), contract: USDT, to: address, value: '15000000', height: 61_998_000 },
    ]);
    const dust = Array.from({ length: 250 }, (_, i) => ({
      txID: txid(30_000 + i),
      to: address,
      amount: 1,
      height: 61_999_500 + i,
    }));
    trongrid.native.set(address, [
      ...dust.reverse(),
      { txID: txid(3), to: address, amount: 40_000_000, height: 61_998_500 },
    ]);
    const w = createTronWatcher({ db: database.db, baseUrl: trongrid.url, tokens: { USDT } });
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'USDT')).toBe(15_000_000n);
    expect(await balanceOf(database.db, 'user_available', userId, 'TRX')).toBe(40_000_000n);
    expect(trongrid.requests.some((r) => r.includes(`contract_address=${USDT}`))).toBe(true);
  });
});
