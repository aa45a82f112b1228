import { type Address, parseEther } from 'viem';
import { readChainsFile } from '../../server/src/modules/chain/chain-config.ts';
import { DEV_ACCOUNT, devClient } from '../../server/src/modules/chain/local-chains.ts';

/**
 * The kill drill's clients (scripts/kill-drill.test.ts, server/scripts/bench-scale.ts): real users of
 * a cluster behind nginx, over HTTP. A request that meets a dying instance (connection reset, 502,
 * 503, 504) is sent again, the same request — for a conversion the same quote id, which is its
 * idempotency key — and counted; one that still fails after RETRIES is a failure of the drill.
 */
export const RETRIES = 8;
const RETRY_PAUSE_MS = 250;

export interface DrillStats {
  requests: number;
  /** Attempts that failed on the way (a dead instance) and were sent again. */
  retried: number;
  /** Requests that never succeeded. */
  failed: number;
}

export function newStats(): DrillStats {
  return { requests: 0, retried: 0, failed: 0 };
}

export class DrillClient {
  private cookie = '';
  readonly username: string;
  readonly email: string;
  readonly password = 'Passw0rd_drill';

  constructor(
    private readonly baseUrl: string,
    tag: string,
    private readonly stats: DrillStats,
  ) {
    const id = `${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`.slice(-10);
    this.username = `${tag}_${id}`.slice(0, 20);
    this.email = `${this.username.toLowerCase()}@example.com`;
  }

  /** One request, sent again while the answer says the instance behind nginx died. */
  async call<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    this.stats.requests += 1;
    for (let attempt = 0; ; attempt++) {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(this.cookie ? { cookie: this.cookie } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).catch(() => undefined);
      const transient = res === undefined || res.status === 502 || res.status === 503 || res.status === 504;
      if (!transient || attempt >= RETRIES) {
        if (!res || transient) {
          this.stats.failed += 1;
          throw new Error(`${method} ${path}: ${res ? res.status : 'no answer'} after ${attempt + 1} attempts`);
        }
        const setCookie = res.headers.getSetCookie();
        for (const c of setCookie) {
          const pair = c.split(';')[0] ?? '';
          if (pair.includes('=') && !pair.endsWith('=')) this.cookie = pair;
        }
        const text = await res.text();
        return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
      }
      this.stats.retried += 1;
      await res?.text().catch(() => undefined);
      await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS));
    }
  }

  async register(): Promise<void> {
    const since = Date.now();
    const sent = await this.call('POST', '/api/auth/codes', { email: this.email, purpose: 'register' });
    if (sent.status !== 202) throw new Error(`code: ${sent.status} ${JSON.stringify(sent.body)}`);
    const code = await this.readCode(since);
    const registered = await this.call('POST', '/api/auth/register', {
      username: this.username,
      country: 'ES',
      password: this.password,
      confirmPassword: this.password,
      email: this.email,
      code,
      agreementAccepted: true,
    });
    if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.body)}`);
  }

  private async readCode(since: number): Promise<string> {
    for (let i = 0; i < 150; i++) {
      const { body } = await this.call<{ messages: { to: string; text: string; createdAt: string }[] }>(
        'GET',
        '/dev/mailbox.json',
      );
      const mine = body.messages.find(
        (m) => m.to.toLowerCase() === this.email && Date.parse(m.createdAt) >= since - 1000,
      );
      const code = mine?.text.match(/\b(\d{6})\b/)?.[1];
      if (code) return code;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`no code e-mailed to ${this.email}`);
  }

  async login(): Promise<void> {
    const res = await this.call('POST', '/api/auth/login', { identifier: this.username, password: this.password });
    if (res.status !== 200) throw new Error(`login: ${res.status} ${JSON.stringify(res.body)}`);
  }

  async depositAddress(): Promise<Address> {
    const res = await this.call<{ address: Address }>('GET', '/api/wallet/deposit-address?coin=ETH&network=ethereum');
    if (res.status !== 200) throw new Error(`deposit address: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.address;
  }

  /** Quote and accept ETH -> USDT; true when converted (a refusal for funds or an expiry is not a failure). */
  async convert(amountMinor: string): Promise<string | null> {
    const q = await this.call<{ quoteId: string }>('POST', '/api/convert/quotes', {
      from: 'ETH',
      to: 'USDT',
      amountMinor,
    });
    if (q.status !== 200) return null;
    const a = await this.call<{ outcome: string }>('POST', `/api/convert/quotes/${q.body.quoteId}/accept`);
    return a.status === 200 && a.body.outcome === 'converted' ? q.body.quoteId : null;
  }
}

/** Sends `ether` from anvil's funded dev account to each address and mines `confirmations` blocks. */
export async function payDeposits(
  dataDir: string,
  addresses: readonly Address[],
  ether: string,
  confirmations: number,
) {
  const chain = readChainsFile(dataDir).ethereum;
  if (!chain) throw new Error('no local ethereum chain in chains.json');
  const client = devClient(chain.rpcUrl, chain.chainId);
  const hashes: `0x${string}`[] = [];
  for (const to of addresses) {
    hashes.push(
      await client.wallet.sendTransaction({ account: DEV_ACCOUNT, to, value: parseEther(ether), chain: null }),
    );
  }
  for (const hash of hashes) await client.waitForTransactionReceipt({ hash });
  await client.mine({ blocks: confirmations });
  return hashes;
}
