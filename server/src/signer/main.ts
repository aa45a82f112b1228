/**
 * The signer process: `node --import tsx server/src/signer/main.ts`, started by the server as a child
 * (signer/spawn.ts) with its own environment. It is the only process that reads the mnemonic
 * (SIGNER_MNEMONIC_FILE, default DATA_DIR/keys/dev-mnemonic.txt) and derives the hot wallet key
 * m/44'/60'/1'/0/0. It polls the database for approved EVM withdrawals (signer/signer.ts).
 *
 * Configuration: the validated config (config.ts, `signer` and `dataDir`) from this process's own
 * environment, which signer/spawn.ts limits to DATABASE_URL (required), DATA_DIR, SIGNER_*,
 * HOT_WALLET_* and the EVM <NETWORK>_RPC_URL etc. (modules/chain/chain-config.ts).
 * Test hooks (not configuration): SIGNER_CRASH_AFTER_RECORD=1
 * kills the process (SIGKILL) right after the first transaction is recorded and before it is broadcast;
 * SIGNER_CRASH_AFTER_REPLACEMENT_RECORD=1 does the same after the first replacement is recorded.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { mnemonicToAccount } from 'viem/accounts';
import { ConfigError, loadConfig } from '../config.ts';
import { createDb } from '../db/create-db.ts';
import { loadChainConfig } from '../modules/chain/chain-config.ts';
import { instanceName, ROLE_LEASE_MS, runAsLeader } from '../modules/leases/leader.ts';
import { fence, LeaseLostError } from '../modules/leases/lease.ts';
import { depositKeys } from './deposit-keys.ts';
import { createSigner } from './signer.ts';
import { withdrawalConfirmations } from './signer-types.ts';

const env = process.env;
const log = (msg: string, details: Record<string, unknown> = {}) =>
  process.stdout.write(`${JSON.stringify({ time: new Date().toISOString(), name: 'signer', msg, ...details })}\n`);

function configOrExit() {
  try {
    return loadConfig(env);
  } catch (err) {
    process.stderr.write(`signer: ${err instanceof ConfigError ? err.message : String(err)}\n`);
    process.exit(2);
  }
}
const config = configOrExit();
const databaseUrl = config.databaseUrl;
if (!databaseUrl) {
  process.stderr.write('signer: DATABASE_URL is required\n');
  process.exit(2);
}
const { dataDir } = config;
const { mnemonicFile, pollMs, replaceAfterMs, maxReplacements, maxFeePerGasWei, sweepIntervalMs } = config.signer;

/**
 * Blocks on a withdrawal's receipt before it settles: the catalogue's per network, or
 * SIGNER_SETTLE_CONFIRMATIONS (1..1000) for local chains that mine a block per transaction (tests, e2e).
 */
function settleConfirmations(): (network: 'ethereum' | 'bsc') => number {
  const raw = env.SIGNER_SETTLE_CONFIRMATIONS;
  if (raw === undefined || raw === '') return withdrawalConfirmations;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 1000) {
    process.stderr.write('signer: SIGNER_SETTLE_CONFIRMATIONS must be an integer from 1 to 1000\n');
    process.exit(2);
  }
  return () => n;
}

// m/44'/60'/1'/0/0: account 1 is the hot wallet (account 0 holds the deposit addresses).
const mnemonic = readFileSync(mnemonicFile, 'utf8').trim();
const account = mnemonicToAccount(mnemonic, { accountIndex: 1 });

// The API shows and funds the hot wallet from HOT_WALLET_<NETWORK> or DATA_DIR/keys/hot-wallets.json:
// a different key here would sign from an address nobody funds, so refuse to start.
for (const network of ['ethereum', 'bsc'] as const) {
  let expected = env[`HOT_WALLET_${network.toUpperCase()}`]?.trim();
  const file = path.join(dataDir, 'keys', 'hot-wallets.json');
  if (!expected && existsSync(file))
    expected = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)[network];
  if (expected && expected.toLowerCase() !== account.address.toLowerCase()) {
    process.stderr.write(
      `signer: the mnemonic's hot wallet ${account.address} is not the ${network} hot wallet ${expected}\n`,
    );
    process.exit(2);
  }
}
const db = createDb(databaseUrl, { max: 3 });
let fenceToken: bigint | null = null;
const signer = createSigner({
  db,
  fence: (trx) => {
    if (fenceToken === null) throw new LeaseLostError('signer');
    return fence(trx, 'signer', fenceToken);
  },
  now: () => new Date(),
  account,
  chains: () => {
    const loaded = loadChainConfig(dataDir, env);
    return Object.fromEntries(Object.entries(loaded).filter(([, c]) => c !== undefined));
  },
  log,
  replaceAfterMs,
  maxReplacements,
  // A receipt settles a withdrawal only once it is as deep as a deposit must be (issue 37, item 6).
  confirmations: settleConfirmations(),
  // Deposit sweeps into the hot wallet (signer/sweeper.ts); SIGNER_SWEEP_INTERVAL_MS=0 turns them off.
  ...(sweepIntervalMs > 0 ? { depositAccount: depositKeys(mnemonic), sweepIntervalMs } : {}),
  ...(maxFeePerGasWei !== undefined ? { maxFeePerGasCapWei: maxFeePerGasWei } : {}),
  ...(env.SIGNER_CRASH_AFTER_RECORD === '1' || env.SIGNER_CRASH_AFTER_REPLACEMENT_RECORD === '1'
    ? {
        afterRecord: (withdrawalId: string, txHash: string, attempt: number) => {
          const crash = attempt === 0 ? env.SIGNER_CRASH_AFTER_RECORD : env.SIGNER_CRASH_AFTER_REPLACEMENT_RECORD;
          if (crash !== '1') return;
          log('test hook: crashing after record, before broadcast', { withdrawalId, txHash, attempt });
          process.kill(process.pid, 'SIGKILL');
        },
      }
    : {}),
});

let stopping = false;
let wake: (() => void) | undefined;
const stop = () => {
  stopping = true;
  wake?.();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// The parent closes our stdin pipe when it exits: do not outlive it.
process.stdin.on('end', stop);
process.stdin.resume();

// One signer per hot wallet among all instances: each API instance may start a signer child, and the
// one holding the 'signer' lease signs. Its writes and broadcasts are fenced with the lease's token
// (signer-types.ts `fence`); a standby takes over within about ROLE_LEASE_MS + a third of it.
const leadership = runAsLeader({
  db,
  role: 'signer',
  holder: instanceName(),
  ttlMs: ROLE_LEASE_MS,
  start: (token) => {
    fenceToken = token;
    log('signer leads', { token: token.toString() });
    wake?.();
    return async () => {
      fenceToken = null;
      log('signer lease lost: standing by');
    };
  },
  onError: (err) => log('lease renewal failed', { error: String(err) }),
});

log('signer started', { hotWallet: signer.address, pollMs, replaceAfterMs, maxReplacements });
while (!stopping) {
  if (fenceToken !== null) {
    try {
      const result = await signer.tick();
      const done =
        result.signed +
        result.settled +
        result.failed +
        result.replaced +
        result.sweeps +
        result.sweepsSettled +
        result.sweepsReplaced;
      if (done > 0) log('tick', { ...result });
    } catch (err) {
      if (err instanceof LeaseLostError) log('lease lost during a tick: nothing more recorded or sent');
      else log('tick failed', { error: String((err as Error).stack ?? err) });
    }
  }
  if (stopping) break;
  await new Promise<void>((resolve) => {
    wake = resolve;
    setTimeout(resolve, pollMs);
  });
}
await leadership.close();
await db.destroy();
log('signer stopped');
process.exit(0);
