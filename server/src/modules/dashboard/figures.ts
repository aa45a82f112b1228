import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, coinDecimals, coinNetworks } from '../catalogue/catalogue.ts';
import { listSnapshots } from '../por/snapshot.ts';
import { archiveFigures } from './archive-figures.ts';
import type { MoneyCheckReport } from './money-check.ts';

/** A withdrawal approved or in transfer this long without moving is "stuck in signing". */
export const STUCK_AFTER_MS = 30 * 60_000;
/** Every list on the dashboard is bounded; counts stay exact. */
export const LIST_MAX = 20;
/** System accounts read at most (kinds x assets x lanes: a few dozen in practice). */
const SYSTEM_ROWS_MAX = 500;

/**
 * Decimals of an amount of `asset`: a coin's ledger decimals, or for a custody chain asset
 * (`USDT@bsc`) the chain unit's, which the custody book counts in.
 */
export function decimalsOf(asset: string): number {
  const [coin, network] = asset.split('@') as [CoinCode, string | undefined];
  if (network === undefined) return coinDecimals(coin);
  return coinNetworks.find((p) => p.coin === coin && p.network === network)?.chainDecimals ?? coinDecimals(coin);
}

const amount = (asset: string, minor: string) => ({ asset, decimals: decimalsOf(asset), minor });

/** The newest proof-of-liabilities root (one row). */
export async function latestRoot(db: Kysely<Database>) {
  const [s] = await listSnapshots(db, 1);
  if (!s) return null;
  return {
    id: s.id,
    createdAt: s.createdAt.toISOString(),
    rootHash: s.rootHash,
    users: s.leafCount,
    totals: s.assets.map((asset, i) => amount(asset, s.rootSums[i] ?? '0')),
  };
}

async function systemAccounts(db: Kysely<Database>) {
  return db
    .selectFrom('ledger_accounts')
    .select(['kind', 'asset', 'lane', 'balance'])
    .where('kind', 'in', ['system_hot_wallet', 'system_deposit_addresses', 'system_rewards', 'system_liquidity'])
    .orderBy('kind')
    .orderBy('asset')
    .orderBy('lane')
    .limit(SYSTEM_ROWS_MAX)
    .execute();
}

/**
 * Custody per network (the custody book: hot wallet and deposit addresses, chain units) and per coin
 * against the liabilities of the last check (ledger units; custody converted down, rounding toward zero).
 */
function custodyFigures(rows: Awaited<ReturnType<typeof systemAccounts>>, check: MoneyCheckReport | null) {
  const networks = new Map<string, { network: string; coin: string; hot: bigint; deposits: bigint }>();
  for (const r of rows) {
    if (r.kind !== 'system_hot_wallet' && r.kind !== 'system_deposit_addresses') continue;
    const [coin, network] = r.asset.split('@');
    if (!coin || !network) continue;
    const entry = networks.get(r.asset) ?? { network, coin, hot: 0n, deposits: 0n };
    if (r.kind === 'system_hot_wallet') entry.hot += BigInt(r.balance);
    else entry.deposits += BigInt(r.balance);
    networks.set(r.asset, entry);
  }
  const perNetwork = [...networks.entries()].map(([asset, n]) => ({
    network: n.network,
    coin: n.coin,
    hotWallet: amount(asset, String(n.hot)),
    depositAddresses: amount(asset, String(n.deposits)),
  }));
  const coins = new Set([...perNetwork.map((n) => n.coin), ...(check?.liabilities ?? []).map((l) => l.asset)]);
  const perCoin = [...coins].sort().map((coin) => {
    const custody = perNetwork
      .filter((n) => n.coin === coin)
      .reduce((sum, n) => {
        const scale = 10n ** BigInt(n.hotWallet.decimals - coinDecimals(coin as CoinCode));
        return sum + (BigInt(n.hotWallet.minor) + BigInt(n.depositAddresses.minor)) / scale;
      }, 0n);
    const liabilities = check?.liabilities.find((l) => l.asset === coin)?.totalMinor ?? null;
    return {
      coin,
      custody: amount(coin, String(custody)),
      liabilities: liabilities === null ? null : amount(coin, liabilities),
      covered: liabilities === null ? null : custody >= BigInt(liabilities),
    };
  });
  return { perNetwork, perCoin };
}

function poolsAndLanes(rows: Awaited<ReturnType<typeof systemAccounts>>) {
  const rewardsPool = rows.filter((r) => r.kind === 'system_rewards').map((r) => amount(r.asset, r.balance));
  const lanes = new Map<string, { lane: number; minor: string }[]>();
  for (const r of rows.filter((x) => x.kind === 'system_liquidity')) {
    lanes.set(r.asset, [...(lanes.get(r.asset) ?? []), { lane: r.lane, minor: r.balance }]);
  }
  const liquidity = [...lanes.entries()].map(([asset, list]) => ({
    ...amount(asset, String(list.reduce((s, l) => s + BigInt(l.minor), 0n))),
    lanes: list,
  }));
  return { rewardsPool, liquidity };
}

/** Withdrawals approved or in transfer without a move for STUCK_AFTER_MS: the count and the oldest few. */
export async function stuckWithdrawals(db: Kysely<Database>, at: Date) {
  const since = new Date(at.getTime() - STUCK_AFTER_MS);
  const base = db
    .selectFrom('withdrawals')
    .where('state', 'in', ['review_approved', 'transfer_in_progress'])
    .where('updated_at', '<', since);
  const counted = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const oldest = await base
    .select(['id', 'coin', 'network', 'amount_minor', 'state', 'updated_at'])
    .orderBy('updated_at')
    .limit(LIST_MAX)
    .execute();
  return {
    count: Number(counted.n),
    stuckAfterMinutes: STUCK_AFTER_MS / 60_000,
    oldest: oldest.map((w) => ({
      id: w.id,
      network: w.network,
      state: w.state,
      since: w.updated_at.toISOString(),
      amount: amount(w.coin, w.amount_minor),
    })),
  };
}

/** Open reorg alerts (deeper than the confirmations) and open chain alerts. */
export async function openAlerts(db: Kysely<Database>) {
  const reorgs = await db
    .selectFrom('reorg_alerts')
    .select(['id', 'network', 'fork_block', 'deposits', 'created_at'])
    .where('resolved_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(LIST_MAX)
    .execute();
  const chain = await db
    .selectFrom('chain_alerts')
    .select(['id', 'network', 'kind', 'detail', 'created_at'])
    .where('resolved_at', 'is', null)
    .orderBy('created_at', 'desc')
    .limit(LIST_MAX)
    .execute();
  const { rows } = await sql<{ reorgs: string; chain: string }>`select
    (select count(*) from reorg_alerts where resolved_at is null)::text as reorgs,
    (select count(*) from chain_alerts where resolved_at is null)::text as chain`.execute(db);
  return {
    reorgCount: Number(rows[0]?.reorgs ?? 0),
    reorgs: reorgs.map((r) => ({
      id: r.id,
      network: r.network,
      forkBlock: r.fork_block,
      deposits: r.deposits,
      createdAt: r.created_at.toISOString(),
    })),
    chainCount: Number(rows[0]?.chain ?? 0),
    chain: chain.map((c) => ({
      id: c.id,
      network: c.network,
      kind: c.kind,
      detail: c.detail.slice(0, 300),
      createdAt: c.created_at.toISOString(),
    })),
  };
}

/** A started check not finished after this long died with its instance: no longer shown as running. */
const RUNNING_MAX_MS = 15 * 60_000;

/** The newest finished check, and whether one waits or runs. */
export async function lastCheck(db: Kysely<Database>, at: Date) {
  const done = await db
    .selectFrom('money_checks')
    .select(['id', 'started_at', 'finished_at', 'ok', 'report', 'requested_by'])
    .where('finished_at', 'is not', null)
    .orderBy('finished_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  const pending = await db
    .selectFrom('money_checks')
    .select(['requested_at', 'started_at'])
    .where('finished_at', 'is', null)
    .where((eb) =>
      eb.or([eb('started_at', 'is', null), eb('started_at', '>', new Date(at.getTime() - RUNNING_MAX_MS))]),
    )
    .orderBy('requested_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return { done, pending };
}

/** Every figure of the dashboard: the last check's, then the cheap ones read now. */
export async function dashboardFigures(db: Kysely<Database>, at: Date) {
  const { done, pending } = await lastCheck(db, at);
  const report = (done?.report ?? null) as MoneyCheckReport | null;
  const rows = await systemAccounts(db);
  return {
    generatedAt: at.toISOString(),
    check: {
      state: done ? (done.ok ? ('ok' as const) : ('mismatch' as const)) : ('never' as const),
      finishedAt: done?.finished_at?.toISOString() ?? null,
      requestedBy: done?.requested_by ?? null,
      durationMs: report?.durationMs ?? null,
      reconcile: report?.reconcile ?? null,
      custodyOnChain: (report?.custody ?? []).map((c) => ({
        network: c.network,
        skipped: c.skipped,
        hot: c.hot.map((h) => ({ ...amount(h.asset, h.chainMinor), bookMinor: h.bookMinor })),
      })),
      pending: pending ? (pending.started_at ? ('running' as const) : ('requested' as const)) : null,
    },
    proofOfLiabilities: await latestRoot(db),
    custody: custodyFigures(rows, report),
    stuckWithdrawals: await stuckWithdrawals(db, at),
    alerts: await openAlerts(db),
    ...poolsAndLanes(rows),
    archive: await archiveFigures(db, at),
  };
}
