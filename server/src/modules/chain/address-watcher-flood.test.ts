import { sha256 } from '@noble/hashes/sha2';
import { base58check } from '@scure/base';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { MAX_HISTORY_PAGES } from './address-history.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEsploraWatcher } from './esplora-watcher.ts';
import {
  type FakeEsplora,
  type FakeTronGrid,
  startFakeEsplora,
  startFakeTronGrid,
  type TronNativeTx,
} from './fake-indexers.ts';
import { createTronWatcher } from './tron-watcher.ts';

/**
 * Issue 39 review: more than MAX_HISTORY_PAGES pages of new history between two reads. The read that
 * hits the cap stores where it stopped and raises a chain alert; the next tick goes on from there and
 * reaches the deposit behind the flood (before: it started at the newest page again, stopped at the
 * first recorded transaction, and never read the deposit).
 */
const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const b58c = base58check(sha256);
const tronHex = (address: string) => Buffer.from(b58c.decode(address)).toString('hex');
const txid = (n: number) => n.toString(16).padStart(64, '0');
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';

describe('address watchers behind a flood of more than 40 pages', () => {
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

  const capAlerts = () =>
    database.db
      .selectFrom('chain_alerts')
      .select(['network', 'dedupe_key'])
      .where('kind', '=', 'history_page_cap')
      .execute();
  const reads = (address: string) =>
    database.db.selectFrom('address_history_reads').selectAll().where('address', '=', address).execute();

  it('bitcoin: a deposit behind 45 pages of dust is credited on the next tick; an alert says the cap was hit', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'bitcoin', accountXpubFromSeed(seed, 'bitcoin'));
    const history = [{ txid: txid(1), vout: [{ scriptpubkey_address: address, value: 100_000 }], height: 900_001 }];
    esplora.txs.set(address, history);
    const w = createEsploraWatcher({ db: database.db, network: 'bitcoin', baseUrl: esplora.url });
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'BTC')).toBe(100_000n);

    // Between two reads: the real deposit, then 45 pages of dust on top of it.
    history.unshift({ txid: txid(2), vout: [{ scriptpubkey_address: address, value: 250_000 }], height: 900_010 });
    const flood = 45 * 25;
    for (let i = 0; i < flood; i++) {
      history.unshift({
        txid: txid(100_000 + i),
        vout: [{ scriptpubkey_address: address, value: 546 }],
        height: 900_020,
      });
    }
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'BTC')).toBe(100_000n); // behind the cap
    expect(await capAlerts()).toEqual([{ network: 'bitcoin', dedupe_key: `chain:${address}` }]);
    expect(await reads(address)).toMatchObject([{ listing: 'chain', finished: false }]);

    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'BTC')).toBe(350_000n);
    expect(await reads(address)).toMatchObject([{ listing: 'chain', finished: true, resume_from: null }]);
    // Nothing read twice into a second row: one deposit per output.
    const rows = await database.db.selectFrom('deposits').select('id').where('user_id', '=', userId).execute();
    expect(rows).toHaveLength(flood + 2);
  }, 120_000);

  it('tron: a TRX deposit behind 42 pages of TRC-10 spam is credited on a later tick', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'tron', accountXpubFromSeed(seed, 'tron'));
    const native: TronNativeTx[] = [{ txID: txid(11), to: address, amount: 10_000_000, height: 61_990_000 }];
    trongrid.native.set(address, native);
    const w = createTronWatcher({ db: database.db, baseUrl: trongrid.url, tokens: { USDT } });
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'TRX')).toBe(10_000_000n);

    native.unshift({ txID: txid(12), to: address, amount: 40_000_000, height: 61_995_000 });
    const spam = (MAX_HISTORY_PAGES + 2) * 200;
    for (let i = 0; i < spam; i++) {
      native.unshift({
        txID: txid(500_000 + i),
        to: address,
        amount: 1,
        height: 61_999_000,
        type: 'TransferAssetContract',
      });
    }
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'TRX')).toBe(10_000_000n);
    expect((await capAlerts()).filter((a) => a.network === 'tron')).toEqual([
      { network: 'tron', dedupe_key: `native:${address}` },
    ]);
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'TRX')).toBe(50_000_000n);
    expect(await reads(address)).toMatchObject([{ listing: 'native', finished: true }]);
  }, 120_000);
});
