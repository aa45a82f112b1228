import { existsSync, readFileSync } from 'node:fs';
import { type Kysely, sql } from 'kysely';
import { type Address, createPublicClient, http, type PublicClient } from 'viem';
import type { Database } from '../../db/schema.ts';
import { type CoinCode, toLedgerMinor } from '../catalogue/catalogue.ts';
import type { EvmNetwork } from '../catalogue/chains-file.ts';
import { type EvmChainRuntime, loadChainConfig, localChainNetworks } from '../chain/chain-config.ts';
import { keyFiles } from '../chain/keygen.ts';
import { depositAddressesOf } from '../custody/custody-addresses.ts';
import { chainBalances } from '../custody/custody-check.ts';
import { LIABILITY_KINDS } from './snapshot.ts';

export interface ReserveRow {
  asset: string;
  reservesMinor: bigint;
  liabilitiesMinor: bigint;
  networks: string[];
}

function hotWallets(dataDir: string, env: NodeJS.ProcessEnv): Partial<Record<EvmNetwork, string>> {
  const fromEnv = { ethereum: env.HOT_WALLET_ETHEREUM?.trim(), bsc: env.HOT_WALLET_BSC?.trim() };
  if (fromEnv.ethereum || fromEnv.bsc) return fromEnv;
  const file = keyFiles(dataDir).hotWallets;
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<EvmNetwork, string>>) : {};
}

/**
 * The balances of `addresses` all read at one block, the head when the read starts: read one by one at
 * `latest`, a sweep mined between two reads would count on its deposit address and again in the hot
 * wallet (review 37b, finding 2).
 */
export async function balancesAtOneBlock(
  client: Pick<PublicClient, 'getBlockNumber' | 'readContract' | 'getBalance'>,
  runtime: Pick<EvmChainRuntime, 'tokens'>,
  network: EvmNetwork,
  addresses: readonly Address[],
): Promise<Map<CoinCode, bigint>> {
  const block = await client.getBlockNumber();
  return chainBalances(client, runtime, network, addresses, block);
}

/** On-chain holdings (hot wallet + every user deposit address) of each coin of one local network, ledger units. */
async function holdings(db: Kysely<Database>, network: EvmNetwork, dataDir: string, env: NodeJS.ProcessEnv) {
  const runtime = loadChainConfig(dataDir, env)[network];
  const held = { byCoin: new Map<CoinCode, bigint>(), notRead: 0 };
  if (!runtime) return held;
  const client = createPublicClient({ transport: http(runtime.rpcUrl) });
  const hot = hotWallets(dataDir, env)[network];
  const listed = await depositAddressesOf(db, network);
  held.notRead = listed.notRead;
  const addresses = [...listed.addresses, ...(hot ? [hot as Address] : [])];
  for (const [coin, chainTotal] of await balancesAtOneBlock(client, runtime, network, addresses)) {
    // Chain units -> ledger units, rounded down (what the ledger could honour).
    held.byCoin.set(coin, toLedgerMinor(coin, network, chainTotal));
  }
  return held;
}

/**
 * Reserves against liabilities for the local chains: what the hot wallet and the users' deposit
 * addresses hold on chain, per asset, beside what the ledger owes users. Assets with no local chain
 * are not checked (no node to ask).
 */
export async function reserveCheck(
  db: Kysely<Database>,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<{ rows: ReserveRow[]; unreachable: string[]; notRead: { network: string; count: number }[] }> {
  const networks = localChainNetworks(env).filter((n) => loadChainConfig(dataDir, env)[n] !== undefined);
  const { rows } = await sql<{ asset: string; total: string }>`
    select asset, sum(balance)::text as total from ledger_accounts
    where kind in (${sql.join(LIABILITY_KINDS.map((k) => sql.lit(k)))}) group by asset`.execute(db);
  const reserves = new Map<string, { minor: bigint; networks: string[] }>();
  const unreachable: string[] = [];
  const notRead: { network: string; count: number }[] = [];
  for (const network of networks) {
    let held: Awaited<ReturnType<typeof holdings>>;
    try {
      held = await holdings(db, network, dataDir, env);
    } catch {
      // The local chain is not running (the server is down): nothing to read, said as such.
      unreachable.push(network);
      continue;
    }
    if (held.notRead > 0) notRead.push({ network, count: held.notRead });
    for (const [coin, minor] of held.byCoin) {
      const entry = reserves.get(coin) ?? { minor: 0n, networks: [] };
      entry.minor += minor;
      entry.networks.push(network);
      reserves.set(coin, entry);
    }
  }
  const result = [...reserves.entries()].map(([asset, r]) => ({
    asset,
    reservesMinor: r.minor,
    liabilitiesMinor: BigInt(rows.find((x) => x.asset === asset)?.total ?? '0'),
    networks: r.networks,
  }));
  return { rows: result, unreachable, notRead };
}

export function reserveLines({
  rows,
  unreachable,
  notRead = [],
}: {
  rows: readonly ReserveRow[];
  unreachable: readonly string[];
  notRead?: readonly { network: string; count: number }[];
}): { lines: string[]; short: boolean } {
  const notes = [
    ...unreachable.map((n) => `reserves: the local ${n} chain is not running, not read`),
    // Loud: reserves are then understated by whatever those addresses hold.
    ...notRead.map((n) => `reserves: ${n.count} deposit address(es) on ${n.network} NOT READ (past the bound)`),
  ];
  if (rows.length === 0) return { lines: [...notes, 'reserves: no local chain to read'], short: false };
  let short = false;
  const lines = rows.map((r) => {
    const covered = r.reservesMinor >= r.liabilitiesMinor;
    if (!covered) short = true;
    const verdict = covered ? 'covered' : `SHORT by ${r.liabilitiesMinor - r.reservesMinor}`;
    return `  ${r.asset}\treserves ${r.reservesMinor} (${r.networks.join('+')})\tliabilities ${r.liabilitiesMinor}\t${verdict}`;
  });
  return {
    lines: ['reserves on the local chains (hot wallet + deposit addresses) vs user liabilities:', ...lines, ...notes],
    short,
  };
}
