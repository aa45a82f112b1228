import { randomBytes, randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import type { Kysely } from 'kysely';
import type { Registry } from 'prom-client';
import type { Database } from './db/schema.ts';
import type { DevClock } from './dev/clock.ts';
import { devClockRoutes } from './dev/clock-routes.ts';
import { ServiceUnavailableError } from './errors/app-error.ts';
import { ErrorResponse } from './errors/schema.ts';
import { registerAuthentication, type SessionResolver } from './http/authenticate.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { createMetricsRegistry, registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { createRateLimitCounter, pgRateLimitStore } from './http/rate-limit-store.ts';
import { createRemoteOrigins } from './http/remote-registry.ts';
import { trackApiRouteMethods } from './http/route-methods.ts';
import { withStrictInput } from './http/safe-text.ts';
import { registerSecurity } from './http/security.ts';
import { registerStatic } from './http/static.ts';
import { type AuthOptions, createAuthModule } from './modules/auth/auth-module.ts';
import { meRoutes } from './modules/auth/me-routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import { Me } from './modules/auth/schemas.ts';
import type { NetworkCode } from './modules/catalogue/catalogue.ts';
import { platformAddresses } from './modules/catalogue/platform-addresses.ts';
import { type ChatHub, createChatHub } from './modules/chat/hub.ts';
import { chatRoutes } from './modules/chat/routes.ts';
import { createChatService } from './modules/chat/service.ts';
import { convertRoutes } from './modules/convert/routes.ts';
import { Conversion, Quote } from './modules/convert/schemas.ts';
import { createConvertService } from './modules/convert/service.ts';
import { depositsRoutes } from './modules/deposits/routes.ts';
import { createDepositsService } from './modules/deposits/service.ts';
import { isOrderDepositAddress } from './modules/exchange/repository.ts';
import { exchangeRoutes } from './modules/exchange/routes.ts';
import { ExchangeOrder, ExchangeRate } from './modules/exchange/schemas.ts';
import { createExchangeService, type ExchangeServiceOptions } from './modules/exchange/service.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { ledgerRoutes } from './modules/ledger/routes.ts';
import { Balance } from './modules/ledger/schemas.ts';
import { createLedgerService } from './modules/ledger/service.ts';
import { createMailModule, type MailOptions } from './modules/mail/mail-module.ts';
import { devMailboxRoutes } from './modules/mail/routes.ts';
import { noticesOpsRoutes } from './modules/notices/ops-routes.ts';
import { noticesRoutes } from './modules/notices/routes.ts';
import { createNoticesService } from './modules/notices/service.ts';
import { operatorGuard } from './modules/operators/guard.ts';
import { operatorSessionRoutes } from './modules/operators/routes.ts';
import { createOperatorsService } from './modules/operators/service.ts';
import { paymentMethodsRoutes } from './modules/payment-methods/routes.ts';
import { createSealer } from './modules/payment-methods/sealing.ts';
import { createPaymentMethodsService } from './modules/payment-methods/service.ts';
import { porRoutes } from './modules/por/routes.ts';
import { priceRoutes } from './modules/prices/routes.ts';
import { createPriceService, type PriceService } from './modules/prices/service.ts';
import { rampRoutes } from './modules/ramp/routes.ts';
import { createRampService, type RampServiceOptions } from './modules/ramp/service.ts';
import { rewardsConfigFromEnv } from './modules/rewards/rewards-config.ts';
import { rewardsRoutes } from './modules/rewards/routes.ts';
import { createRewardsService, type RewardsServiceOptions } from './modules/rewards/service.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { UserSettings } from './modules/settings/schemas.ts';
import { createSettingsService } from './modules/settings/service.ts';
import { supportRoutes } from './modules/support/routes.ts';
import { createSupportService } from './modules/support/service.ts';
import { ticketsRoutes } from './modules/tickets/routes.ts';
import { createTicketsService } from './modules/tickets/service.ts';
import { uploadsRoutes } from './modules/uploads/routes.ts';
import { createUploadsService } from './modules/uploads/service.ts';
import { createLocalStore, type ObjectStore } from './modules/uploads/storage.ts';
import { userMailRoutes } from './modules/user-mail/routes.ts';
import { createUserMailService } from './modules/user-mail/service.ts';
import { type WalletOptions, walletRoutes } from './modules/wallet/wallet-module.ts';

export interface AppDeps {
  /** Kysely over PostgreSQL (`createDb`), or `createOfflineDb()` when no database is needed. */
  db: Kysely<Database>;
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
  /** Trust X-Forwarded-* (client IP for rate limiting, host for the CSRF check). */
  trustProxy?: boolean;
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
  /** Convert quote lifetime in ms (default 10 s). */
  convertQuoteTtlMs?: number;
  /** Rewards (modules/rewards): the programme's numbers and the chains with a check-in contract. */
  rewards?: Partial<Pick<RewardsServiceOptions, 'config' | 'chains'>>;
  /** Payout methods (modules/payment-methods): the 32-byte key sealing their numbers; default a random one (tests). */
  payouts?: { key: Buffer };
  /** Buy/sell (modules/ramp): the provider adapter and the networks it delivers on; unset: unavailable. */
  ramp?: Partial<Omit<RampServiceOptions, 'db' | 'now'>>;
  /** DEV_CLOCK: POST /dev/clock (loopback only) moves `now` and the local chains forward. */
  devClock?: { clock: DevClock; advanceChains: (seconds: number) => Promise<void> };
}

export type App = FastifyInstance;

/**
 * Builds the Fastify app without listening: plugins load on `app.ready()`,
 * `app.inject()` or `app.listen()`. Closing the app does not close `deps.db`.
 */
/** Requests are logged at debug: every one in development (debug), none at production's info. */
class DebugRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }
  override requestCompleted(error: Error | null | undefined, _request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

/**
 * A URL Fastify cannot decode (bad %-encoding) never reaches a route, so no hook runs: answer it in the
 * one error shape with the headers every answer carries (request id, no sniffing, no framing, no store).
 */
function answerMalformedRequest(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply
    .code(400)
    .header('x-request-id', request.id)
    .header('x-content-type-options', 'nosniff')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
    .header('cache-control', 'no-store')
    .send({ code: 'VALIDATION_FAILED', message: error.code === 'FST_ERR_BAD_URL' ? 'Malformed URL' : error.message });
}

/** The chat's fan-out: a LISTEN connection of this app's own, a given hub, or none. */
function chatHubOf(deps: AppDeps, onError: (err: unknown) => void): ChatHub | null {
  const n = deps.notifications;
  if (!n) return null;
  return 'hub' in n ? n.hub : createChatHub({ connectionString: n.databaseUrl, onError });
}

export function buildApp(deps: AppDeps): App {
  const now = deps.now ?? (() => new Date());
  const staticDir = deps.staticDir ?? null;

  const app: App = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: deps.bodyLimit ?? 1024 * 1024,
    trustProxy: deps.trustProxy ?? false,
    genReqId: () => randomUUID(),
    logController: new DebugRequestLog(),
    frameworkErrors: answerMalformedRequest,
    // While draining, answer late requests ourselves (below) so they get the one error shape.
    return503OnClosing: false,
  });
  // Control characters, lone surrogates and loose integers are refused in every field, for every route.
  app.setValidatorCompiler(withStrictInput(TypeBoxValidatorCompiler));

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    if (closing) throw new ServiceUnavailableError('Server is shutting down');
  });
  // API answers are about someone's account (or could be): no browser or proxy keeps a copy, unless a
  // route says otherwise (the catalogue may be revalidated). Static files set their own policy.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  app.addSchema(ErrorResponse);
  app.addSchema(UserSettings);
  app.addSchema(Me);
  app.addSchema(Balance);
  app.addSchema(ExchangeRate);
  app.addSchema(ExchangeOrder);
  app.addSchema(Quote);
  app.addSchema(Conversion);
  app.register(cookie);
  // Multipart bodies are only read by the upload routes, as streams, with per-place limits there.
  app.register(multipart, { limits: { files: 1, fields: 0, parts: 1, headerPairs: 100 } });

  // One upload store for the upload routes and for mail attachments read from it.
  const uploadsDir = path.join(os.tmpdir(), 'cw-uploads');
  const uploadStore = deps.uploads?.store ?? createLocalStore(uploadsDir);
  const mail = createMailModule({
    db: deps.db,
    now,
    openObject: (key) => uploadStore.get(key),
    ...deps.mail,
    onError: (err) => app.log.warn({ err }, 'outbox delivery failed'),
  });
  const auth = createAuthModule({ db: deps.db, now, ...deps.auth, onMailQueued: () => mail.worker.nudge() });
  if (mail.autoStart) {
    app.addHook('onReady', async () => mail.worker.start());
    app.addHook('onClose', async () => {
      await mail.worker.stop();
      mail.transport.close();
    });
  }
  app.addHook('onClose', async () => auth.close());
  registerAuthentication(app, deps.sessionResolver ?? auth.sessions.resolver);
  registerMetrics(app, deps.metrics ?? createMetricsRegistry(), { token: deps.metricsToken ?? null });

  const registryFile = staticDir === null ? null : path.join(staticDir, 'remotes.json');
  const remoteOrigins = createRemoteOrigins(registryFile, (err) =>
    app.log.warn({ err }, 'cannot read remotes.json; keeping the previous remote origins'),
  );
  registerSecurity(app, {
    rateLimit: deps.rateLimit ?? { max: 1000, windowMs: 60_000 },
    rateLimitStore: deps.rateLimitStore === 'database' ? pgRateLimitStore(createRateLimitCounter(deps.db)) : undefined,
    remoteOrigins,
  });
  registerOpenApi(app);
  const methodsOf = trackApiRouteMethods(app);

  // The platform's own addresses, refused as withdrawal and exchange targets.
  const hotWallets = deps.hotWallets ?? {};
  const platform = platformAddresses({
    hotWallets: () => hotWallets,
    ...(deps.wallet?.chains ? { chains: deps.wallet.chains } : {}),
    isOrderDepositAddress: (network, address) => isOrderDepositAddress(deps.db, network, address),
  });

  // API modules: route -> service -> repository. Each module is a plugin taking its services.
  app.register(
    async (api) => {
      const typed = api.withTypeProvider<TypeBoxTypeProvider>();
      await typed.register(healthRoutes, { db: deps.db });
      await typed.register(settingsRoutes, { service: createSettingsService({ db: deps.db, now }) });
      await typed.register(authRoutes, { accounts: auth.accounts, sessions: auth.sessions });
      await typed.register(meRoutes, { ...auth });
      await typed.register(ledgerRoutes, { service: createLedgerService({ db: deps.db, now }) });
      await typed.register(walletRoutes, { db: deps.db, now, auth, platform, ...deps.wallet });
      await typed.register(depositsRoutes, {
        service: createDepositsService({ db: deps.db, now, xpubs: deps.deposits?.xpubs ?? {} }),
      });
      const notices = createNoticesService({ db: deps.db, now });
      await typed.register(userMailRoutes, {
        service: createUserMailService({
          db: deps.db,
          now,
          ...(deps.mailDailyLimit === undefined ? {} : { dailyLimit: deps.mailDailyLimit }),
          onQueued: () => mail.worker.nudge(),
        }),
      });
      const operators = createOperatorsService({ db: deps.db, now, hasher: auth.hasher });
      await typed.register(noticesRoutes, { service: notices });
      await typed.register(operatorSessionRoutes, { service: operators });
      const requireOperator = operatorGuard(operators);
      await typed.register(noticesOpsRoutes, { service: notices, requireOperator });
      const uploads = createUploadsService({
        db: deps.db,
        now,
        store: uploadStore,
        tmpDir: deps.uploads?.tmpDir ?? path.join(uploadsDir, 'tmp'),
        quotaBytes: deps.uploads?.quotaBytes ?? 200 * 1024 * 1024,
      });
      await typed.register(uploadsRoutes, { service: uploads, requireOperator });
      await typed.register(supportRoutes, {
        service: createSupportService({ db: deps.db, now, uploads, onMailQueued: () => mail.worker.nudge() }),
        uploads,
        requireOperator,
      });
      await typed.register(ticketsRoutes, {
        service: createTicketsService({ db: deps.db, now, uploads, onMailQueued: () => mail.worker.nudge() }),
        requireOperator,
      });
      const hub = chatHubOf(deps, (err) => app.log.warn({ err }, 'chat notifications connection failed'));
      if (hub && deps.notifications && 'databaseUrl' in deps.notifications) app.addHook('onClose', () => hub.close());
      await typed.register(chatRoutes, {
        service: createChatService({ db: deps.db, now, uploads, onMailQueued: () => mail.worker.nudge() }),
        hub,
        now,
        requireOperator,
      });
      await typed.register(exchangeRoutes, {
        service: createExchangeService({
          db: deps.db,
          now,
          prices: deps.exchange?.prices ?? deps.prices ?? null,
          xpubs: deps.exchange?.xpubs ?? null,
          ...(deps.exchange?.fixedWindowMs === undefined ? {} : { fixedWindowMs: deps.exchange.fixedWindowMs }),
          ...(deps.exchange?.availability ? { availability: deps.exchange.availability } : {}),
          ...(deps.exchange?.maxUnpaidOrders === undefined ? {} : { maxUnpaidOrders: deps.exchange.maxUnpaidOrders }),
          ...(deps.exchange?.floatWindowMs === undefined ? {} : { floatWindowMs: deps.exchange.floatWindowMs }),
          platform,
        }),
      });
      await typed.register(rewardsRoutes, {
        service: createRewardsService({
          db: deps.db,
          now,
          config: deps.rewards?.config ?? rewardsConfigFromEnv({}),
          chains: deps.rewards?.chains ?? (() => ({ ethereum: undefined, bsc: undefined })),
        }),
      });
      await typed.register(paymentMethodsRoutes, {
        service: createPaymentMethodsService({
          db: deps.db,
          now,
          sealer: createSealer(deps.payouts?.key ?? randomBytes(32)),
        }),
      });
      await typed.register(porRoutes, { db: deps.db });
      await typed.register(
        rampRoutes,
        createRampService({ db: deps.db, now, xpubs: deps.deposits?.xpubs ?? {}, ...deps.ramp }),
      );
      const prices = deps.prices ?? createPriceService({ source: null, now });
      await typed.register(priceRoutes, { prices });
      await typed.register(convertRoutes, {
        service: createConvertService({ db: deps.db, now, prices, quoteTtlMs: deps.convertQuoteTtlMs }),
      });
    },
    { prefix: '/api' },
  );
  app.register(async (scope) => {
    await scope
      .withTypeProvider<TypeBoxTypeProvider>()
      .register(devMailboxRoutes, { db: deps.db, enabled: mail.devMailbox });
    await scope.withTypeProvider<TypeBoxTypeProvider>().register(devClockRoutes, {
      clock: deps.devClock?.clock ?? null,
      advanceChains: deps.devClock?.advanceChains ?? (async () => {}),
    });
  });

  const spaFallback = staticDir === null ? undefined : registerStatic(app, staticDir);
  registerErrorHandling(app, spaFallback ? { spaFallback, methodsOf } : { methodsOf });
  return app;
}
