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

/**
 * A code request answered, or answered "too soon" because it was sent again after its first attempt
 * reached a dying instance (which sent the code before its answer was lost).
 */
function codeSent(res: { status: number; body: unknown }): boolean {
  return (
    res.status === 202 || res.status === 204 || (res.body as { code?: string } | null)?.code === 'CODE_RESEND_TOO_SOON'
  );
}

export class DrillClient {
  private readonly cookies = new Map<string, string>();
  readonly username: string;
  readonly email: string;
  readonly password = 'Passw0rd_drill';

  /**
   * `codes`: the newest code e-mailed to the address after a number of distinct messages, read where the cluster's mail goes (its SMTP
   * server in the drill).
   */
  constructor(
    private readonly baseUrl: string,
    tag: string,
    private readonly stats: DrillStats,
    private readonly codes: (email: string, after: number) => Promise<{ code: string; seen: number }>,
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
          ...(this.cookies.size > 0 ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      }).catch(() => undefined);
      const transient = res === undefined || res.status === 502 || res.status === 503 || res.status === 504;
      if (!transient || attempt >= RETRIES) {
        if (!res || transient) {
          this.stats.failed += 1;
          throw new Error(`${method} ${path}: ${res ? res.status : 'no answer'} after ${attempt + 1} attempts`);
        }
        // A browser's jar: the session and the device cookie (a sign-in from the browser that registered
        // is from a known device; without it the sign-in would wait for the e-mailed confirmation).
        for (const c of res.headers.getSetCookie()) {
          const pair = c.split(';')[0] ?? '';
          const at = pair.indexOf('=');
          if (at <= 0) continue;
          const value = pair.slice(at + 1);
          if (value === '') this.cookies.delete(pair.slice(0, at));
          else this.cookies.set(pair.slice(0, at), value);
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
    const sent = await this.call('POST', '/api/auth/codes', { email: this.email, purpose: 'register' });
    if (!codeSent(sent)) throw new Error(`code: ${sent.status} ${JSON.stringify(sent.body)}`);
    const code = await this.readCode();
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

  private mailsSeen = 0;

  /** The code e-mailed to this client since the last one it read (it asks for one code at a time). */
  private async readCode(): Promise<string> {
    const { code, seen } = await this.codes(this.email, this.mailsSeen);
    this.mailsSeen = seen;
    return code;
  }

  private readonly fundPassword = '802461';

  async setFundPassword(): Promise<void> {
    const sent = await this.call('POST', '/api/auth/codes', { purpose: 'fund_password' });
    if (!codeSent(sent)) throw new Error(`fund password code: ${sent.status} ${JSON.stringify(sent.body)}`);
    const code = await this.readCode();
    const set = await this.call('POST', '/api/me/fund-password', {
      code,
      fundPassword: this.fundPassword,
      confirmFundPassword: this.fundPassword,
    });
    if (set.status !== 204) throw new Error(`fund password: ${set.status} ${JSON.stringify(set.body)}`);
  }

  /** An ETH withdrawal; sent again with the same idempotency key, it is the same withdrawal. */
  async withdraw(
    address: Address,
    amountMinor: string,
    idempotencyKey: string,
  ): Promise<{ id: string; arrivalMinor: string }> {
    const sent = await this.call('POST', '/api/wallet/withdrawals/email-code', {});
    if (!codeSent(sent)) throw new Error(`withdraw code: ${sent.status} ${JSON.stringify(sent.body)}`);
    const emailCode = await this.readCode();
    const res = await this.call<{ id: string; arrivalMinor: string }>('POST', '/api/wallet/withdrawals', {
      coin: 'ETH',
      network: 'ethereum',
      address,
      amountMinor,
      idempotencyKey,
      fundPassword: this.fundPassword,
      emailCode,
    });
    if (res.status !== 201) throw new Error(`withdraw: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
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
