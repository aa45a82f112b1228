import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  canonicalPrizeTable,
  drawPrizeIndex,
  drawWithClientSeed,
  prizeIndexFromMac,
  sha256Hex,
  verifyClientSeedDraw,
  verifyDraw,
} from './lottery.ts';

const prizes = [{ weight: 60 }, { weight: 30 }, { weight: 9 }, { weight: 1 }];
const seed = Uint8Array.from({ length: 32 }, (_, i) => i);

describe('likes lottery draw', () => {
  it('is HMAC-SHA256(seed, "u:day:n") mapped by its first 32-bit word modulo the total weight', async () => {
    const mac = createHmac('sha256', seed).update('user-1:2026-11-25:1').digest();
    const ticket = mac.readUInt32BE(0) % 100;
    const expected = ticket < 60 ? 0 : ticket < 90 ? 1 : ticket < 99 ? 2 : 3;
    expect(await drawPrizeIndex(seed, 'user-1', '2026-11-25', 1, prizes)).toBe(expected);
  });

  it('rejects a word in the biased tail and takes the next one', () => {
    const mac = new Uint8Array(32);
    const view = new DataView(mac.buffer);
    view.setUint32(0, 0xffffffff); // >= floor(2^32/100)*100: rejected
    view.setUint32(4, 95); // ticket 95 -> index 2
    expect(prizeIndexFromMac(mac, prizes)).toBe(2);
    expect(prizeIndexFromMac(new Uint8Array(32).fill(0xff), prizes)).toBeUndefined();
  });

  it('is close to the weights over many draws', async () => {
    const counts = new Map<number, number>();
    for (let n = 1; n <= 4000; n++) {
      const i = await drawPrizeIndex(seed, 'u', '2026-11-25', n, prizes);
      counts.set(i, (counts.get(i) ?? 0) + 1);
    }
    const share = (i: number) => (counts.get(i) ?? 0) / 4000;
    expect(share(0)).toBeGreaterThan(0.55);
    expect(share(0)).toBeLessThan(0.65);
    expect(share(1)).toBeGreaterThan(0.26);
    expect(share(3)).toBeLessThan(0.025);
  });

  it('verifies a revealed seed against its commitment and refuses a tampered one', async () => {
    const commitment = createHash('sha256').update(seed).digest('hex');
    expect(await sha256Hex(seed)).toBe(commitment);
    const prizeIndex = await drawPrizeIndex(seed, 'u', '2026-11-25', 3, prizes);
    const seedHex = Buffer.from(seed).toString('hex');
    const base = { seedHex, commitment, userId: 'u', day: '2026-11-25', n: 3, prizeIndex, prizes };
    expect(await verifyDraw(base)).toEqual({ commitmentOk: true, drawOk: true });
    expect((await verifyDraw({ ...base, seedHex: `${seedHex.slice(0, 63)}0` })).commitmentOk).toBe(false);
    expect((await verifyDraw({ ...base, prizeIndex: (prizeIndex + 1) % 4 })).drawOk).toBe(false);
  });

  it('refuses a table with a non-integer or zero weight', () => {
    expect(() => prizeIndexFromMac(new Uint8Array(32), [{ weight: 0.5 }])).toThrow();
    expect(() => prizeIndexFromMac(new Uint8Array(32), [{ weight: 0 }])).toThrow();
  });
});

describe('likes lottery draw with a client seed (issue 36 item 15)', () => {
  const table = [
    { weight: 60, amountMinor: '0' },
    { weight: 40, amountMinor: '10000' },
  ];

  it('is HMAC-SHA256(serverSeed, "clientSeed:nonce"), and verifies alone from its inputs', async () => {
    const mac = createHmac('sha256', seed).update('my-seed:7').digest();
    expect(await drawWithClientSeed(seed, 'my-seed', 7, table)).toBe(mac.readUInt32BE(0) % 100 < 60 ? 0 : 1);
    const canonical = canonicalPrizeTable(table);
    expect(canonical).toBe('[{"weight":60,"amountMinor":"0"},{"weight":40,"amountMinor":"10000"}]');
    const inputs = {
      serverSeedHex: Buffer.from(seed).toString('hex'),
      commitment: createHash('sha256').update(seed).digest('hex'),
      clientSeed: 'my-seed',
      nonce: 7,
      prizeTable: table,
      prizeTableHash: createHash('sha256').update(canonical).digest('hex'),
      prizeIndex: await drawWithClientSeed(seed, 'my-seed', 7, table),
    };
    expect(await verifyClientSeedDraw(inputs)).toEqual({ commitmentOk: true, prizeTableOk: true, drawOk: true });
    const richer = [table[0], { weight: 40, amountMinor: '20000' }] as typeof table;
    expect((await verifyClientSeedDraw({ ...inputs, prizeTable: richer })).prizeTableOk).toBe(false);
    expect((await verifyClientSeedDraw({ ...inputs, clientSeed: 'other' })).drawOk).toBe(
      (await drawWithClientSeed(seed, 'other', 7, table)) === inputs.prizeIndex,
    );
  });
});
