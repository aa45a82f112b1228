import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { AppDeps } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import { type Harness, nextIp, receiveCode, registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import type { CoinCode } from '../catalogue/catalogue.ts';
import type { EvmChains } from '../catalogue/chains-file.ts';
import { createLedgerService } from '../ledger/service.ts';
import { approveInReview } from './four-eyes.ts';
import type { WithdrawalRow } from './repository.ts';
import { autoReviewLimits } from './review-policy.ts';

/** Test-only: a running-chains answer that enables ethereum and bsc withdrawals (no node is called). */
/** The test hot wallet (anvil's tenth account): refused as a withdrawal target. */
export const TEST_HOT_WALLET = '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720';

export const TEST_CHAINS: EvmChains = {
  ethereum: {
    chainId: 31337,
    rpcUrl: 'http://127.0.0.1:9',
    tokens: { USDT: '0x5FbDB2315678afecb367f032d93F642f64180aa3', USDC: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512' },
  },
  bsc: {
    chainId: 5631337,
    rpcUrl: 'http://127.0.0.1:9',
    tokens: { USDT: '0x5FbDB2315678afecb367f032d93F642f64180aa3' },
  },
};

export const ETH_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** The auth harness (real PostgreSQL, SMTP sink, cookie sessions) with the wallet enabled. */
export function useWalletHarness(overrides: Partial<AppDeps> = {}): Harness {
  return useAuthHarness({
    auth: { codeLimits: { resendAfterSeconds: 0, perAddressPerHour: 10_000, perIpPerHour: 10_000 } },
    wallet: { chains: () => TEST_CHAINS, autoReviewLimits: autoReviewLimits({ ETH: '5', USDT: '10000' }) },
    hotWallets: { ethereum: TEST_HOT_WALLET, bsc: TEST_HOT_WALLET },
    ...overrides,
  });
}

export type WalletUser = Awaited<ReturnType<typeof registerUser>>;

export async function newUser(h: Harness): Promise<WalletUser> {
  return registerUser(h);
}

/** Credits a deposit straight through the ledger (the deposit watcher's job in production). */
export async function fund(h: Harness, userId: string, asset: CoinCode, amountMinor: bigint): Promise<void> {
  await createLedgerService({ db: h.db, now: h.clock.now }).deposit({
    idempotencyKey: `test-deposit:${randomUUID()}`,
    userId,
    asset,
    amountMinor,
  });
}

/** Moves the clock 1 s first: codes issued at the same instant would tie on "latest". */
export async function withdrawCode(h: Harness, user: WalletUser): Promise<string> {
  h.clock.advance(1000);
  return receiveCode(h, { purpose: 'withdraw', cookie: user.cookie, to: user.email });
}

/** A `transfer` code: what a send to another user takes (a `withdraw` code does not). */
export async function transferCode(h: Harness, user: WalletUser): Promise<string> {
  h.clock.advance(1000);
  return receiveCode(h, { purpose: 'transfer', cookie: user.cookie, to: user.email });
}

export async function post(h: Harness, user: WalletUser, url: string, payload: object) {
  return h.app.inject({ method: 'POST', url, remoteAddress: nextIp(), headers: { cookie: user.cookie }, payload });
}

export async function get(h: Harness, user: WalletUser, url: string) {
  return h.app.inject({ method: 'GET', url, remoteAddress: nextIp(), headers: { cookie: user.cookie } });
}

export async function balance(h: Harness, user: WalletUser, asset: CoinCode) {
  const res = await get(h, user, '/api/me/balances');
  const row = (res.json() as { asset: string; availableMinor: string; lockedMinor: string }[]).find(
    (b) => b.asset === asset,
  );
  return { available: BigInt(row?.availableMinor ?? '0'), locked: BigInt(row?.lockedMinor ?? '0') };
}

export const key = () => randomUUID();

/** Test-only: the operator named on reviews that tests approve or reject directly. */
export const TEST_REVIEWER = { operatorId: '00000000-0000-4000-8000-000000000001', name: 'test_reviewer' } as const;

/**
 * Test-only: approves a withdrawal in review as a finance operator would, through four-eyes.ts's rules
 * (the database refuses an operator's approval with no recorded decision). TEST_REVIEWER is made an
 * enabled finance operator first; the threshold is out of reach, so one approval suffices.
 */
export async function approveForTest(trx: Transaction<Database>, id: string, at: Date): Promise<WithdrawalRow> {
  await trx
    .insertInto('operators')
    .values({
      id: TEST_REVIEWER.operatorId,
      name: TEST_REVIEWER.name,
      password_hash: null,
      roles: ['finance'],
      enrolment_token_hash: null,
      enrolment_expires_at: null,
      enrolment_issued_by: null,
      created_at: at,
      disabled_at: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  const by = { ...TEST_REVIEWER, roles: ['finance'] as const };
  const r = await approveInReview(trx, id, by, { valueUsdCents: () => 0n, thresholdUsdCents: 10n ** 30n }, at);
  if (r.outcome !== 'approved') throw new Error(`approveForTest: ${r.outcome}`);
  return r.row;
}
