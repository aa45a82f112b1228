import { beforeEach, describe, expect, it } from 'vitest';
import { auditDraws, loadSeedRecords, rememberSeed, SEED_RECORDS_MAX } from './seed-records.ts';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const T = 'c'.repeat(64);
const draw = (commitment: string, clientSeed: string | null, nonce: number, prizeTableHash: string | null = T) => ({
  commitment,
  clientSeed,
  nonce,
  prizeTableHash,
});

describe('the client seeds this browser set (review of issue 36 item 15, M1)', () => {
  beforeEach(() => localStorage.clear());

  it('keeps them per user, newest last, at most SEED_RECORDS_MAX', () => {
    rememberSeed('u1', { commitment: A, clientSeed: 's1', prizeTableHash: T });
    rememberSeed('u2', { commitment: B, clientSeed: 's2', prizeTableHash: T });
    expect(loadSeedRecords('u1')).toMatchObject([{ commitment: A, clientSeed: 's1', prizeTableHash: T }]);
    expect(loadSeedRecords('u2')).toHaveLength(1);
    for (let i = 0; i < SEED_RECORDS_MAX + 5; i++) {
      rememberSeed('u1', { commitment: i.toString(16).padStart(64, '0'), clientSeed: `s${i}`, prizeTableHash: T });
    }
    const kept = loadSeedRecords('u1');
    expect(kept).toHaveLength(SEED_RECORDS_MAX);
    expect(kept.at(-1)?.clientSeed).toBe(`s${SEED_RECORDS_MAX + 4}`);
  });

  it('reads garbage in storage as nothing stored', () => {
    localStorage.setItem('cw.rewards.lottery-seeds.u1', '{not json');
    expect(loadSeedRecords('u1')).toEqual([]);
    localStorage.setItem('cw.rewards.lottery-seeds.u1', JSON.stringify([{ commitment: 1 }]));
    expect(loadSeedRecords('u1')).toEqual([]);
  });

  it('passes draws whose pair is the one stored, with nonces 1..N', () => {
    const records = [{ commitment: A, clientSeed: 's1', prizeTableHash: T, setAt: '' }];
    const audit = auditDraws([draw(A, 's1', 2), draw(A, 's1', 1), draw(A, 's1', 3)], records);
    expect(audit.map((a) => a.issues)).toEqual([[], [], []]);
  });

  it('flags a client seed or a prize table that differs from the stored one', () => {
    const records = [{ commitment: A, clientSeed: 's1', prizeTableHash: T, setAt: '' }];
    const [seed, table] = auditDraws([draw(A, 'evil', 1), draw(A, 's1', 2, 'd'.repeat(64))], records);
    expect(seed?.issues).toContain('clientSeedMismatch');
    expect(table?.issues).toContain('prizeTableMismatch');
  });

  it('flags a commitment this browser never set', () => {
    const records = [{ commitment: A, clientSeed: 's1', prizeTableHash: T, setAt: '' }];
    expect(auditDraws([draw(B, 's1', 1)], records)[0]?.issues).toEqual(['notSetHere']);
  });

  it('flags a nonce gap or a repeated nonce on a seed (a hidden draw), per seed', () => {
    const records = [
      { commitment: A, clientSeed: 's1', prizeTableHash: T, setAt: '' },
      { commitment: B, clientSeed: 's2', prizeTableHash: T, setAt: '' },
    ];
    const audit = auditDraws([draw(A, 's1', 1), draw(A, 's1', 3), draw(B, 's2', 1), draw(B, 's2', 1)], records);
    expect(audit.map((a) => a.issues.includes('nonceGap'))).toEqual([true, true, true, true]);
    expect(auditDraws([draw(A, 's1', 2)], records)[0]?.issues).toEqual(['nonceGap']);
  });

  it('leaves day-seed draws (no client seed) to their own check', () => {
    expect(auditDraws([draw(A, null, 5, null)], [])[0]?.issues).toEqual([]);
  });
});
