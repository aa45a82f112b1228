import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsChildArgs } from '../lib/ts-child.ts';

const signerScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'main.ts');
const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Variables the signer may see: nothing of the API's (session secrets, SMTP, ...). */
const passThrough = [
  /^PATH$/,
  /^HOME$/,
  /^NODE_/,
  /^(ETHEREUM|BSC)_(RPC_URL|CHAIN_ID|TOKEN_[A-Z]+)$/,
  /^SIGNER_/,
  /^HOT_WALLET_(ETHEREUM|BSC)$/,
  /^TZ$/,
];

export interface SignerProcess {
  child: ChildProcess;
  /** SIGTERM, then SIGKILL after `timeoutMs`. */
  stop(timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

export function startSignerProcess(options: {
  databaseUrl: string;
  dataDir: string;
  env?: NodeJS.ProcessEnv;
  onLine?: (line: string) => void;
}): SignerProcess {
  const source = options.env ?? process.env;
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) if (passThrough.some((re) => re.test(name))) env[name] = value;
  env.DATABASE_URL = options.databaseUrl;
  env.DATA_DIR = options.dataDir;
  const child = spawn(process.execPath, tsChildArgs(signerScript, [], source), {
    cwd: serverRoot,
    env,
    // stdin is a pipe the child watches: when this process dies, the pipe closes and the signer stops.
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let buffer = '';
  const onData = (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      options.onLine?.(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  };
  child.stdout?.on('data', onData);
  child.stderr?.on('data', onData);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    async stop(timeoutMs = 5_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Restarts of a signer that died: after 1 s, doubling up to 30 s while it keeps dying within a minute. */
const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const STABLE_MS = 60_000;

/**
 * Server start-up: the signer child when enabled and a mnemonic exists (the keygen child writes the
 * development one before the app starts), supervised: a signer that dies (killed, crashed) is started
 * again, so an instance always offers a signer to take the 'signer' lease over when the leading one
 * dies elsewhere. Exit code 2 (bad configuration, a mnemonic that is not the hot wallet's) is not
 * retried. Returns the closer for the shutdown list, or undefined.
 */
export function startConfiguredSigner(
  config: { dataDir: string; wallet: { signerEnabled: boolean }; signer: { mnemonicFile: string } },
  databaseUrl: string,
  logger: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void },
): { name: string; close: () => Promise<void> } | undefined {
  if (!config.wallet.signerEnabled) return undefined;
  const { mnemonicFile } = config.signer;
  if (!existsSync(mnemonicFile)) {
    logger.warn({ mnemonicFile }, 'no hot wallet mnemonic: signer not started, approved withdrawals wait');
    return undefined;
  }
  let stopping = false;
  let current: SignerProcess;
  let backoffMs = RESTART_MIN_MS / 2;
  let timer: NodeJS.Timeout | undefined;
  const start = () => {
    const startedAt = Date.now();
    current = startSignerProcess({
      databaseUrl,
      dataDir: config.dataDir,
      onLine: (line) => logger.info({ signer: line }, 'signer'),
    });
    const child = current.child;
    void current.exited.then((code) => {
      logger.warn({ code, signal: child.signalCode }, 'signer process exited');
      if (stopping || code === 2) return;
      backoffMs = Date.now() - startedAt > STABLE_MS ? RESTART_MIN_MS : Math.min(backoffMs * 2, RESTART_MAX_MS);
      timer = setTimeout(start, backoffMs);
    });
  };
  start();
  return {
    name: 'signer process',
    close: async () => {
      stopping = true;
      clearTimeout(timer);
      await current.stop();
    },
  };
}
