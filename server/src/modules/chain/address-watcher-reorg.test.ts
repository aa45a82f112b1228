import { sha256 } from '@noble/hashes/sha2';
import { base58check } from '@scure/base';
import { mnemonicToSeedSync } from '@scure/bip39';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../test/app.ts';
import { useTestDatabase } from '../../test/database.ts';
import { depositAddressFor } from '../deposits/addresses.ts';
import { withdrawalsFrozen } from '../deposits/reorg-alerts.ts';
import { balanceOf } from '../ledger/test-helpers.ts';
import { accountXpubFromSeed } from './derive.ts';
import { createEsploraWatcher } from './esplora-watcher.ts';
import { type FakeEsplora, type FakeTronGrid, startFakeEsplora, startFakeTronGrid } from './fake-indexers.ts';
import { createTronWatcher } from './tron-watcher.ts';

/**
 * Issue 39 item 6: the address-indexed watchers (Esplora, TronGrid) check the block hash of EVERY
 * unconfirmed deposit, re-check credited ones (a deep-reorg alert on BTC, DOGE and TRON too), ask the
 * node again in the transaction that credits, and never answer a check from a cache.
 */
const seed = mnemonicToSeedSync(
  'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
);
const b58c = base58check(sha256);
const tronHex = (address: string) => Buffer.from(b58c.decode(address)).toString('hex');
const txid = (n: number) => n.toString(16).padStart(64, '0');

describe('address watchers and reorgs', () => {
  const database = useTestDatabase();
  let esplora: FakeEsplora;
  let trongrid: FakeTronGrid;
  beforeAll(async () => {
    esplora = await startFakeEsplora(800_000);
    trongrid = await startFakeTronGrid(61_000_000, tronHex);
  });
  afterAll(async () => {
    await esplora?.close();
    await trongrid?.close();
  });

  async function btcDepositor() {
    const userId = await createUser(database.db);
    return {
      userId,
      address: await depositAddressFor(database.db, userId, 'bitcoin', accountXpubFromSeed(seed, 'bitcoin')),
    };
  }
  const btcWatcher = () => createEsploraWatcher({ db: database.db, network: 'bitcoin', baseUrl: esplora.url });
  const alertsOf = async (network: string) =>
    database.db.selectFrom('reorg_alerts').selectAll().where('network', '=', network).execute();

  it('dogecoin, 21 unconfirmed deposits: a reorg under the highest is found in the tick it happens (not only the 20 lowest)', async () => {
    const height = 5_000_100;
    const users = [];
    for (let i = 0; i < 21; i++) {
      const userId = await createUser(database.db);
      const address = await depositAddressFor(database.db, userId, 'dogecoin', accountXpubFromSeed(seed, 'dogecoin'));
      const h = i < 20 ? height : height + 1;
      esplora.txs.set(address, [
        { txid: txid(1000 + i), vout: [{ scriptpubkey_address: address, value: 1_000_000_000 }], height: h },
      ]);
      users.push({ userId, address });
    }
    esplora.tipHeight = height + 1;
    const w = createEsploraWatcher({ db: database.db, network: 'dogecoin', baseUrl: esplora.url });
    for (let i = 0; i < 3; i++) await w.tick(); // 20 addresses a tick: all recorded, confirming (6 needed)
    const last = users[20] as { userId: string; address: string };
    // The highest deposit's block is replaced by one without it; the chain grows by a block.
    esplora.forks.set(height + 1, 1);
    esplora.txs.set(last.address, []);
    esplora.tipHeight = height + 2;
    const report = await w.tick();
    expect(report.reorgForkBlock).toBe(BigInt(height));
    const row = await database.db
      .selectFrom('deposits')
      .selectAll()
      .where('user_id', '=', last.userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'failed', reason: 'reorged' });
    esplora.tipHeight = height + 10;
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', last.userId, 'DOGE')).toBe(0n);
    expect(await balanceOf(database.db, 'user_available', (users[0] as { userId: string }).userId, 'DOGE')).toBe(
      1_000_000_000n,
    );
  });

  it('a block that changes between the reorg check and the credit: the credit re-asks the node and credits nothing', async () => {
    const u = await btcDepositor();
    const height = 800_200;
    esplora.txs.set(u.address, [
      { txid: txid(2000), vout: [{ scriptpubkey_address: u.address, value: 30_000 }], height },
    ]);
    esplora.tipHeight = height;
    const w = btcWatcher();
    for (let i = 0; i < 2; i++) await w.tick(); // recorded, confirming
    expect(await database.db.selectFrom('deposits').select('state').where('user_id', '=', u.userId).execute()).toEqual([
      { state: 'confirming' },
    ]);
    // The tick's reorg check still gets the old hash; right after it, the block is replaced.
    esplora.tipHeight = height + 1;
    esplora.afterBlockHash = (h) => {
      if (h !== height) return;
      esplora.forks.set(height, 7);
      esplora.txs.set(u.address, []);
      esplora.afterBlockHash = undefined;
    };
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', u.userId, 'BTC')).toBe(0n);
  });

  it('bitcoin: a reorg deeper than the confirmations under a credited deposit raises an alert and freezes its user', async () => {
    const u = await btcDepositor();
    const height = 800_300;
    esplora.txs.set(u.address, [
      { txid: txid(3000), vout: [{ scriptpubkey_address: u.address, value: 40_000 }], height },
    ]);
    esplora.tipHeight = height + 2;
    const w = btcWatcher();
    for (let i = 0; i < 3; i++) await w.tick();
    expect(await balanceOf(database.db, 'user_available', u.userId, 'BTC')).toBe(40_000n);
    for (let h = height; h <= height + 2; h++) esplora.forks.set(h, 2);
    esplora.txs.set(u.address, []);
    esplora.tipHeight = height + 4;
    const report = await w.tick();
    expect(report.reorgForkBlock).toBe(BigInt(height - 1));
    expect(await alertsOf('bitcoin')).toHaveLength(1);
    expect(await withdrawalsFrozen(database.db, u.userId)).toBe(true);
    await w.tick();
    expect(await alertsOf('bitcoin')).toHaveLength(1); // raised once
  });

  it('tron: a credited deposit whose block changes raises a deep-reorg alert (the hash is never answered from a cache)', async () => {
    const userId = await createUser(database.db);
    const address = await depositAddressFor(database.db, userId, 'tron', accountXpubFromSeed(seed, 'tron'));
    trongrid.native.set(address, [{ txID: txid(4000), to: address, amount: 25_000_000, height: 61_000_000 }]);
    const w = createTronWatcher({ db: database.db, baseUrl: trongrid.url, tokens: {} });
    await w.tick();
    expect(await balanceOf(database.db, 'user_available', userId, 'TRX')).toBe(25_000_000n);
    trongrid.forks.set(61_000_000, 3);
    trongrid.native.set(address, []);
    trongrid.tipHeight = 61_000_002;
    await w.tick();
    expect(await alertsOf('tron')).toHaveLength(1);
    expect(await withdrawalsFrozen(database.db, userId)).toBe(true);
  });
});
