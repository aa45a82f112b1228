import '../../../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { canonicalPrizeTable, drawWithClientSeed, prizeTableHash, sha256Hex } from '@cw/shared-state/lottery';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rememberSeed } from '../lib/seed-records.ts';

const USER = '11111111-1111-4111-8111-111111111111';
const PRIZES = [
  { weight: 3, amountMinor: '0' },
  { weight: 1, amountMinor: '100' },
];
const days = new Map<string, unknown>();
vi.mock('../api/likes.ts', () => ({
  fetchLotteryDay: async (day: string) => {
    const view = days.get(day);
    if (!view) throw new Error(`no draws on ${day}`);
    return view;
  },
}));

const { VerifyDay } = await import('./verify-day.tsx');

const seed = Uint8Array.from({ length: 32 }, (_, i) => i + 1);
const seedHex = Array.from(seed, (b) => b.toString(16).padStart(2, '0')).join('');

/** A revealed draw the server says it made: cryptographically consistent with its own inputs. */
async function drawOn(day: string, n: number, clientSeed: string, nonce: number) {
  return {
    day,
    n,
    prizeIndex: await drawWithClientSeed(seed, clientSeed, nonce, PRIZES),
    asset: 'USDT',
    prizeMinor: '0',
    commitment: await sha256Hex(seed),
    serverSeed: seedHex,
    clientSeed,
    nonce,
    prizeTableHash: await prizeTableHash(canonicalPrizeTable(PRIZES)),
    prizeTable: PRIZES,
  };
}

async function verify(day: string, pastDays: string[]) {
  render(
    <Suspense fallback={null}>
      <VerifyDay day={day} prizes={PRIZES} pastDays={pastDays} />
    </Suspense>,
  );
  fireEvent.click(await screen.findByTestId('verify'));
  const result = screen.getByTestId('verify-result');
  await waitFor(() => expect(result.textContent).not.toBe(''));
  return result;
}

describe('verifying a day against the client seeds this browser set (review of issue 36 item 15, M1)', () => {
  beforeEach(async () => {
    localStorage.clear();
    days.clear();
    await changeLanguage('en');
  });
  afterEach(cleanup);

  const remember = async (clientSeed: string) =>
    rememberSeed(USER, {
      commitment: await sha256Hex(seed),
      clientSeed,
      prizeTableHash: await prizeTableHash(canonicalPrizeTable(PRIZES)),
    });

  it('passes a pair set here whose nonces run 1..N across days (earlier days fetched)', async () => {
    await remember('mine');
    days.set('2026-11-01', { day: '2026-11-01', userId: USER, draws: [await drawOn('2026-11-01', 1, 'mine', 1)] });
    days.set('2026-11-02', { day: '2026-11-02', userId: USER, draws: [await drawOn('2026-11-02', 1, 'mine', 2)] });
    const result = await verify('2026-11-02', ['2026-11-02', '2026-11-01']);
    expect(result.textContent).toContain('verified');
    expect(result.dataset.ok).toBe('true');
  });

  it('warns when the client seed differs from the one stored for the commitment', async () => {
    await remember('mine');
    days.set('2026-11-02', { day: '2026-11-02', userId: USER, draws: [await drawOn('2026-11-02', 1, 'theirs', 1)] });
    const result = await verify('2026-11-02', ['2026-11-02']);
    expect(result.textContent).toBe('Warning: these draws do not match the client seeds you set in this browser');
    expect(result.dataset.ok).toBe('false');
    expect(screen.getByTestId('draw-issue').dataset.issue).toBe('clientSeedMismatch');
  });

  it('warns on a commitment never set here', async () => {
    days.set('2026-11-02', { day: '2026-11-02', userId: USER, draws: [await drawOn('2026-11-02', 1, 'mine', 1)] });
    await verify('2026-11-02', ['2026-11-02']);
    expect(screen.getByTestId('draw-issue').dataset.issue).toBe('notSetHere');
  });

  it('warns on a nonce gap (a draw made on the pair but not shown)', async () => {
    await remember('mine');
    days.set('2026-11-01', { day: '2026-11-01', userId: USER, draws: [await drawOn('2026-11-01', 1, 'mine', 1)] });
    days.set('2026-11-02', { day: '2026-11-02', userId: USER, draws: [await drawOn('2026-11-02', 1, 'mine', 3)] });
    const result = await verify('2026-11-02', ['2026-11-02', '2026-11-01']);
    expect(result.dataset.ok).toBe('false');
    expect(screen.getByTestId('draw-issue').dataset.issue).toBe('nonceGap');
  });
});
