import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import type { ReadRouting } from './db/replication/read-routing.ts';
import type { Database } from './db/schema.ts';
import type { SessionResolver } from './http/authenticate.ts';
import type { ConsoleSurface } from './http/console-surface.ts';
import type { TrustProxy } from './http/trust-proxy.ts';
import type { AuthOptions } from './modules/auth/auth-module.ts';
import type { NetworkCode } from './modules/catalogue/catalogue.ts';
import type { ChatHub } from './modules/chat/hub.ts';
import type { ExchangeServiceOptions } from './modules/exchange/service.ts';
import type { MailOptions } from './modules/mail/mail-module.ts';
import type { PriceService } from './modules/prices/service.ts';
import type { RampServiceOptions } from './modules/ramp/service.ts';
import type { RewardsServiceOptions } from './modules/rewards/service.ts';
import type { ObjectStore } from './modules/uploads/storage.ts';
import type { WalletOptions } from './modules/wallet/wallet-module.ts';

/** What buildApp (app.ts) is built from: the database, the clock, and each module's options. */
export interface AppDeps {
  /** Kysely over PostgreSQL (`createDb`), or `createOfflineDb()` when no database is needed. */
  db: Kysely<Database>;
  /**
   * DATABASE_READ_URL's routing (db/replication/read-routing.ts): history, notices and proof-of-liabilities
   * reads go to the replica in the routes marked `config.replicaRead`; unset: everything reads `db`.
   */
  reads?: ReadRouting;
  /** The clock. Inject a fixed one in tests. */
  now?: () => Date;
  /** Who is signed in. Default: the auth module's cookie sessions. */
  sessionResolver?: SessionResolver;
  /** Sessions, code limits, password hasher (modules/auth). */
  auth?: AuthOptions;
  /** SMTP or dev mailbox, outbox worker (modules/mail). */
  mail?: MailOptions;
  /** A pino logger; default: no logging. */
  logger?: FastifyBaseLogger;
  /** Prometheus registry; default: a new one with default process metrics. */
  metrics?: Registry;
  /** With a token, the app port serves /metrics to `Authorization: Bearer <token>`; else not at all. */
  metricsToken?: string | null;
  /** Origins remotes may be served from besides ours (REMOTE_ORIGINS); default: read from the environment. */
  remoteOrigins?: readonly string[];
  /**
   * The operator console's origin and how a request is known to come through its listener
   * (http/console-surface.ts); default: DEFAULT_CONSOLE_ORIGIN and the listener's own tag.
   */
  console?: Partial<ConsoleSurface>;
  /** Serve the deployed front end from this folder (host/, remotes/, remotes.json); null/unset: API only. */
  staticDir?: string | null;
  /** Max request body in bytes; default 1 MiB. */
  bodyLimit?: number;
  /** Per client IP; default 1000 requests a minute. */
  rateLimit?: { max: number; windowMs: number };
  /**
   * Where the global rate limit counts: 'database' (PostgreSQL, shared by every instance; what the
   * server runs with) or 'memory' (this process; the default for tests of one app).
   */
  rateLimitStore?: 'database' | 'memory';
  /**
   * REDIS_URL's client: the global rate limit and the failed-attempt throttles count there instead
   * (rateLimitStore is then ignored). Sessions stay in PostgreSQL. The caller closes it.
   */
  redis?: Redis;
  /**
   * Which X-Forwarded-* hops to believe (client IP for rate limiting, host for the CSRF check):
   * http/trust-proxy.ts; `true` is one proxy in front, never "every hop".
   */
  trustProxy?: TrustProxy | true;
  /** Wallet (modules/wallet/wallet-module.ts): running EVM chains, auto-review limits. */
  wallet?: WalletOptions;
  /** The hot wallet address per network (modules/chain keys): refused, like token contracts, as a target. */
  hotWallets?: Partial<Record<NetworkCode, string>>;
  /** Deposits (modules/deposits): account xpubs per network (public keys only); unset: no deposit addresses. */
  deposits?: { xpubs: Partial<Record<NetworkCode, string>> };
  /** Exchange orders (modules/exchange): USD prices and the deposit xpubs; unset: no prices, no keys. */
  exchange?: Partial<
    Pick<
      ExchangeServiceOptions,
      'prices' | 'xpubs' | 'fixedWindowMs' | 'floatWindowMs' | 'availability' | 'maxUnpaidOrders'
    >
  >;
  /** Price cache (modules/prices); default: no source, so prices and quotes answer PRICE_UNAVAILABLE. */
  prices?: PriceService;
  /** Mails a user may send in 24 hours (MAIL_DAILY_LIMIT, default 20). */
  mailDailyLimit?: number;
  /** The support address: with the user's own, the only recipient of user mail (SUPPORT_EMAIL). */
  supportEmail?: string;
  /**
   * Uploads (modules/uploads): where objects go (default: a local store under the OS temp folder,
   * main.ts passes DATA_DIR/uploads or S3), its temp folder, and the bytes a user may keep (200 MiB).
   */
  uploads?: { store?: ObjectStore; tmpDir?: string; quotaBytes?: number };
  /**
   * PostgreSQL URL for LISTEN/NOTIFY (live chat fan-out between instances), or a hub of one's own;
   * unset: the chat's event streams answer 503.
   */
  notifications?: { databaseUrl: string } | { hub: ChatHub };
  /** Live chat: the event streams' heartbeat (default chat/stream.ts's HEARTBEAT_MS; tests shorten it). */
  chat?: { heartbeatMs?: number };
  /** Convert quote lifetime in ms (default 10 s). */
  convertQuoteTtlMs?: number;
  /** API instances sharing the database (config.convert.instances); 1 when absent. */
  apiInstances?: number;
  /** Rewards (modules/rewards): the programme's numbers and the chains with a check-in contract. */
  rewards?: Partial<Pick<RewardsServiceOptions, 'config' | 'chains'>>;
  /** Proof of liabilities (modules/por): the time between snapshots, to say when the next is due. */
  por?: { intervalMs: number };
  /** Payout methods (modules/payment-methods): the 32-byte key sealing their numbers; default a random one (tests). */
  payouts?: { key: Buffer };
  /** Buy/sell (modules/ramp): the provider adapter and the networks it delivers on; unset: unavailable. */
  ramp?: Partial<Omit<RampServiceOptions, 'db' | 'now' | 'codes' | 'fundPassword' | 'budget'>>;
}
