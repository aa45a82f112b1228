import { type Kysely, sql } from 'kysely';
import { type Address, createPublicClient, erc20Abi, http, type PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, coinNetworks } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { type EvmChainRuntime, loadChainConfig, localChainNetworks } from '../chain/chain-config.ts';
import { depositAddressesOf } from './custody-addresses.ts';
import { chainAsset, custodyBalances } from './custody-book.ts';

/** On-chain balances summed over `addresses`, per coin of the network, in chain units (at `block`, or the latest). */
export async function chainBalances(
  client: Pick<PublicClient, 'readContract' | 'getBalance'>,
  runtime: Pick<EvmChainRuntime, 'tokens'>,
  network: EvmNetwork,
  addresses: readonly Address[],
  block?: bigint,
): Promise<Map<CoinCode, bigint>> {
  const at = block === undefined ? {} : { blockNumber: block };
  const result = new Map<CoinCode, bigint>();
  for (const pair of coinNetworks.filter((p) => p.network === network)) {
    const token = pair.tokenContract === null ? undefined : runtime.tokens[pair.coin];
    if (pair.tokenContract !== null && !token) continue;
    let total = 0n;
    for (const address of addresses) {
      total += token
        ? await client.readContract({
            address: token,
            abi: erc20Abi,
            functionName: 'balanceOf',
            args: [address],
            ...at,
          })
        : await client.getBalance({ address, ...at });
    }
    result.set(pair.coin, total);
  }
  return result;
}

export interface CustodyNetworkReport {
  network: EvmNetwork;
  /** Why the hot wallet was not compared (no opening yet, transactions in flight, moved while read). */
  skipped?: string;
  /** Deposit addresses past the bound, not read: the deposit comparison is then incomplete. */
  notRead?: number;
  hot: { asset: string; chain: bigint; book: bigint }[];
  deposits: { asset: string; chain: bigint; book: bigint }[];
}

async function inFlight(db: Kysely<Database>, network: EvmNetwork): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select (select count(*) from signer_transactions where network = ${network} and state = 'signed')
         + (select count(*) from sweep_transactions where network = ${network} and state = 'signed') as n`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

const bookKey = (rows: Awaited<ReturnType<typeof custodyBalances>>) =>
  rows
    .map((r) => `${r.kind}|${r.asset}|${r.balanceMinor}`)
    .sort()
    .join(',');

async function checkNetwork(db: Kysely<Database>, runtime: EvmChainRuntime, network: EvmNetwork) {
  const report: CustodyNetworkReport = { network, hot: [], deposits: [] };
  const opening = await db.selectFrom('custody_openings').selectAll().where('network', '=', network).executeTakeFirst();
  if (!opening) return { ...report, skipped: 'the custody book is not opened yet (the signer opens it)' };
  const pending = await inFlight(db, network);
  if (pending > 0) return { ...report, skipped: `${pending} transaction(s) in flight` };
  const client = createPublicClient({ transport: http(runtime.rpcUrl) });
  const before = await custodyBalances(db, network);
  const hotChain = await chainBalances(client, runtime, network, [opening.address as Address]);
  const listed = await depositAddressesOf(db, network);
  const depositChain = await chainBalances(client, runtime, network, listed.addresses);
  const after = await custodyBalances(db, network);
  if (bookKey(before) !== bookKey(after) || (await inFlight(db, network)) > 0)
    return { ...report, skipped: 'custody moved while it was read; run again' };
  const book = (kind: string, asset: string) =>
    after.find((r) => r.kind === kind && r.asset === asset)?.balanceMinor ?? 0n;
  for (const [coin, chain] of hotChain) {
    const asset = chainAsset(coin, network);
    report.hot.push({ asset, chain, book: book('system_hot_wallet', asset) });
  }
  if (listed.notRead > 0) report.notRead = listed.notRead;
  for (const [coin, chain] of depositChain) {
    const asset = chainAsset(coin, network);
    report.deposits.push({ asset, chain, book: book('system_deposit_addresses', asset) });
  }
  return report;
}

/**
 * The custody book against the local chains: each hot wallet's balance must equal its custody account
 * exactly; the deposit addresses must hold at least theirs (more is deposits not credited yet).
 */
export async function custodyCheck(db: Kysely<Database>, dataDir: string, env: NodeJS.ProcessEnv) {
  const reports: CustodyNetworkReport[] = [];
  for (const network of localChainNetworks(env)) {
    const runtime = loadChainConfig(dataDir, env)[network];
    if (!runtime) continue;
    try {
      reports.push(await checkNetwork(db, runtime, network));
    } catch {
      reports.push({ network, skipped: 'the local chain is not running', hot: [], deposits: [] });
    }
  }
  return reports;
}

/** Lines for `npm run ops -- reconcile`; `ok` is false when a hot wallet differs from its custody account. */
export function custodyLines(reports: readonly CustodyNetworkReport[]): { lines: string[]; ok: boolean } {
  const lines = ['custody (chain units): hot wallet on chain = its custody account; deposit addresses >= theirs'];
  let ok = true;
  for (const r of reports) {
    if (r.skipped) {
      lines.push(`  ${r.network}: not compared: ${r.skipped}`);
      continue;
    }
    for (const h of r.hot) {
      const same = h.chain === h.book;
      if (!same) ok = false;
      lines.push(
        `  ${h.asset}\thot wallet ${h.chain}\tbook ${h.book}\t${same ? 'matches' : `MISMATCH by ${h.chain - h.book}`}`,
      );
    }
    if (r.notRead) {
      // A partial sum proves nothing either way (it can read SHORT for a healthy book, or hide a shortfall).
      ok = false;
      lines.push(`  ${r.network}: ${r.notRead} deposit address(es) NOT READ (past the bound): deposits not compared`);
      continue;
    }
    for (const d of r.deposits) {
      const verdict = d.chain >= d.book ? `covered (${d.chain - d.book} not credited)` : `SHORT by ${d.book - d.chain}`;
      lines.push(`  ${d.asset}\tdeposit addresses ${d.chain}\tbook ${d.book}\t${verdict}`);
    }
  }
  return { lines, ok };
}
