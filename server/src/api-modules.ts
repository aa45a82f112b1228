import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { AppDeps } from './app-deps.ts';
import { DEFAULT_CONSOLE_ORIGIN } from './http/console-surface.ts';
import { allowlistHoldMsOf } from './modules/allowlist/service.ts';
import type { createAuthModule } from './modules/auth/auth-module.ts';
import { meRoutes } from './modules/auth/me-routes.ts';
import { authRoutes } from './modules/auth/routes.ts';
import type { PlatformAddresses } from './modules/catalogue/platform-addresses.ts';
import { type ChatHub, createChatHub } from './modules/chat/hub.ts';
import { chatRoutes } from './modules/chat/routes.ts';
import { createChatService } from './modules/chat/service.ts';
import { HEARTBEAT_MS } from './modules/chat/stream.ts';
import { createStreamSlots } from './modules/chat/stream-slots.ts';
import { knownVersionsOf } from './modules/client-events/known-versions.ts';
import { clientEventsRoutes } from './modules/client-events/routes.ts';
import { convertRoutes } from './modules/convert/routes.ts';
import { createConvertService } from './modules/convert/service.ts';
import { depositsRoutes } from './modules/deposits/routes.ts';
import { createDepositsService } from './modules/deposits/service.ts';
import { exchangeRoutes } from './modules/exchange/routes.ts';
import { createExchangeService } from './modules/exchange/service.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { ledgerRoutes } from './modules/ledger/routes.ts';
import { createLedgerService } from './modules/ledger/service.ts';
import type { createMailModule } from './modules/mail/mail-module.ts';
import { noticesOpsRoutes } from './modules/notices/ops-routes.ts';
import { noticesRoutes } from './modules/notices/routes.ts';
import { createNoticesService } from './modules/notices/service.ts';
import { operatorModules } from './modules/operators/module.ts';
import { opsUsersRoutes } from './modules/ops-users/routes.ts';
import { paymentMethodsRoutes } from './modules/payment-methods/routes.ts';
import { createSealer } from './modules/payment-methods/sealing.ts';
import { createPaymentMethodsService } from './modules/payment-methods/service.ts';
import { porIntervalFromEnv } from './modules/por/por-module.ts';
import { porRoutes } from './modules/por/routes.ts';
import { priceRoutes } from './modules/prices/routes.ts';
import { createPriceService } from './modules/prices/service.ts';
import { cancelPendingSells } from './modules/ramp/cancel.ts';
import { rampRoutes } from './modules/ramp/routes.ts';
import { createRampService } from './modules/ramp/service.ts';
import { rewardsConfigFromEnv } from './modules/rewards/rewards-config.ts';
import { rewardsRoutes } from './modules/rewards/routes.ts';
import { createRewardsService } from './modules/rewards/service.ts';
import { sbomRoutes } from './modules/sbom/routes.ts';
import { antiPhishingRoutes } from './modules/security/anti-phishing-routes.ts';
import { emailChangeRoutes } from './modules/security/email-change-routes.ts';
import { registerFreezeGuard } from './modules/security/freeze-guard.ts';
import { freezeRoutes } from './modules/security/freeze-routes.ts';
import { newDeviceRoutes } from './modules/security/new-device-routes.ts';
import { opsSecurityStateRoutes } from './modules/security/ops-security-state-routes.ts';
import { securityOverviewRoutes } from './modules/security/overview-routes.ts';
import { passkeyRoutes } from './modules/security/passkey-routes.ts';
import { securityRoutes } from './modules/security/routes.ts';
import { settingsRoutes } from './modules/settings/routes.ts';
import { createSettingsService } from './modules/settings/service.ts';
import { supportRoutes } from './modules/support/routes.ts';
import { createSupportService } from './modules/support/service.ts';
import { ticketsRoutes } from './modules/tickets/routes.ts';
import { createTicketsService } from './modules/tickets/service.ts';
import { uploadsRoutes } from './modules/uploads/routes.ts';
import { createUploadsService } from './modules/uploads/service.ts';
import type { ObjectStore } from './modules/uploads/storage.ts';
import { userMailRoutes } from './modules/user-mail/routes.ts';
import { createUserMailService } from './modules/user-mail/service.ts';
import { outflowBudgetOf, walletRoutes } from './modules/wallet/wallet-module.ts';
import { withdrawalOpsRoutes } from './modules/withdrawals/ops-routes.ts';
import type { OutflowBudget } from './modules/withdrawals/outflow-budget.ts';
import { createWithdrawalReview } from './modules/withdrawals/review-service.ts';

/** What the API modules share with the app around them (app.ts builds these once). */
export interface ApiModulesContext {
  deps: AppDeps;
  now: () => Date;
  auth: AuthModule;
  mail: MailModule;
  uploadStore: ObjectStore;
  uploadsDir: string;
  platform: PlatformAddresses;
}

type AuthModule = ReturnType<typeof createAuthModule>;
type MailModule = ReturnType<typeof createMailModule>;

/** The chat's fan-out: a LISTEN connection of this app's own, a given hub, or none. */
function chatHubOf(deps: AppDeps, onError: (err: unknown) => void): ChatHub | null {
  const n = deps.notifications;
  if (!n) return null;
  return 'hub' in n ? n.hub : createChatHub({ connectionString: n.databaseUrl, onError });
}

/** The API modules under /api, each a plugin taking its services: route -> service -> repository. */
export function apiModules(ctx: ApiModulesContext): FastifyPluginAsync {
  return async (api) => {
    // In this order: the OpenAPI document lists the routes as they were registered.
    // One USD review budget for what leaves an account: withdrawals, sends (wallet) and sells (ramp).
    const outflowBudget = outflowBudgetOf(ctx.deps.wallet ?? {}, ctx.deps.prices ?? null);
    // Before any route: a frozen account's changes are refused on every route registered after it.
    registerFreezeGuard(api, { db: ctx.deps.db, now: ctx.now });
    await accountAndSupportModules(api, ctx, outflowBudget);
    await moneyModules(api, ctx, outflowBudget);
  };
}

/** Health, settings, sign-in, balances, wallet, deposits, mail, notices, operators, uploads, support, chat. */
async function accountAndSupportModules(
  api: FastifyInstance,
  ctx: ApiModulesContext,
  outflowBudget: OutflowBudget,
): Promise<void> {
  const { deps, now, auth, mail, uploadStore, uploadsDir, platform } = ctx;
  const typed = api.withTypeProvider<TypeBoxTypeProvider>();
  await typed.register(healthRoutes, { db: deps.db });
  await typed.register(settingsRoutes, { service: createSettingsService({ db: deps.db, now }) });
  await typed.register(authRoutes, { accounts: auth.accounts, sessions: auth.sessions });
  await typed.register(meRoutes, { ...auth });
  await typed.register(securityRoutes, { auth });
  await typed.register(passkeyRoutes, { auth });
  await typed.register(antiPhishingRoutes, { db: deps.db, now });
  await typed.register(freezeRoutes, { auth });
  await typed.register(newDeviceRoutes, { auth });
  await typed.register(emailChangeRoutes, { auth });
  await typed.register(securityOverviewRoutes, { auth });
  await typed.register(ledgerRoutes, { service: createLedgerService({ db: deps.db, now }) });
  await typed.register(walletRoutes, {
    db: deps.db,
    readDb: deps.reads?.db ?? deps.db,
    now,
    auth,
    platform,
    ...deps.wallet,
    outflowBudget,
  });
  await typed.register(depositsRoutes, {
    service: createDepositsService({
      db: deps.db,
      now,
      xpubs: deps.deposits?.xpubs ?? {},
      ...(deps.wallet?.chains ? { chains: deps.wallet.chains } : {}),
    }),
  });
  const notices = createNoticesService({ db: deps.db, readDb: deps.reads?.db ?? deps.db, now });
  await typed.register(userMailRoutes, {
    service: createUserMailService({
      db: deps.db,
      now,
      ...(deps.mailDailyLimit === undefined ? {} : { dailyLimit: deps.mailDailyLimit }),
      ...(deps.supportEmail === undefined ? {} : { supportEmail: deps.supportEmail }),
      onQueued: () => mail.worker.nudge(),
    }),
  });
  const { operators, requireOperator } = await operatorModules(api, {
    db: deps.db,
    now,
    auth,
    sealKey: deps.payouts?.key ?? null,
    onUserSessionsEnded: cancelPendingSells,
    consoleOrigin: deps.console?.origin ?? DEFAULT_CONSOLE_ORIGIN,
    passkeyOptionsPerIpMinute: auth.webauthn.optionsPerIpMinute,
    passkeyAnswersPerIpMinute: auth.webauthn.answersPerIpMinute,
  });
  await typed.register(noticesRoutes, { service: notices });
  await typed.register(noticesOpsRoutes, { service: notices, requireOperator });
  await typed.register(sbomRoutes, { staticDir: deps.staticDir ?? null, requireOperator });
  await typed.register(clientEventsRoutes, {
    db: deps.db,
    knownVersions: knownVersionsOf(deps.staticDir ? path.join(deps.staticDir, 'remotes.json') : null),
    globalPerMinute: ((deps.rateLimit?.max ?? 1000) * 60_000) / (deps.rateLimit?.windowMs ?? 60_000),
  });
  await typed.register(opsSecurityStateRoutes, { db: deps.db, now, requireOperator });
  await typed.register(withdrawalOpsRoutes, {
    // The prices the outflow budget reads (wallet-module.ts outflowBudgetOf), fresh ones only (review-service.ts).
    review: createWithdrawalReview({ db: deps.db, now, prices: deps.wallet?.prices ?? deps.prices ?? null, platform }),
    requireOperator,
  });
  await typed.register(opsUsersRoutes, { db: deps.db, now, requireOperator });
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
  const hub = chatHubOf(deps, (err) => api.log.warn({ err }, 'chat notifications connection failed'));
  if (hub && deps.notifications && 'databaseUrl' in deps.notifications) api.addHook('onClose', () => hub.close());
  await typed.register(chatRoutes, {
    service: createChatService({ db: deps.db, now, uploads, onMailQueued: () => mail.worker.nudge() }),
    hub,
    now,
    requireOperator,
    userSessionLive: (id) => auth.sessions.isLive(id),
    operatorSessionLive: (id, roles) => operators.isLive(id, roles),
    slots: createStreamSlots({ db: deps.db, now, heartbeatMs: deps.chat?.heartbeatMs ?? HEARTBEAT_MS }),
    heartbeatMs: deps.chat?.heartbeatMs ?? HEARTBEAT_MS,
  });
}

/** Exchange, rewards, payout methods, proof of liabilities, buy/sell, prices and convert. */
async function moneyModules(api: FastifyInstance, ctx: ApiModulesContext, outflowBudget: OutflowBudget): Promise<void> {
  const { deps, now, platform, auth } = ctx;
  const typed = api.withTypeProvider<TypeBoxTypeProvider>();
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
      fundPassword: auth.fundPassword,
      holdMs: allowlistHoldMsOf(deps.wallet?.allowlistHoldHours),
      publicOrigin: auth.publicOrigin,
    }),
  });
  await typed.register(porRoutes, {
    db: deps.reads?.db ?? deps.db,
    now,
    intervalMs: deps.por?.intervalMs ?? porIntervalFromEnv({}),
  });
  await typed.register(
    rampRoutes,
    createRampService({
      db: deps.db,
      now,
      xpubs: deps.deposits?.xpubs ?? {},
      codes: auth.codes,
      fundPassword: auth.fundPassword,
      factors: auth.factors,
      budget: outflowBudget,
      ...deps.ramp,
    }),
  );
  const prices = deps.prices ?? createPriceService({ source: null, now });
  await typed.register(priceRoutes, { prices });
  await typed.register(convertRoutes, {
    service: createConvertService({
      db: deps.db,
      now,
      prices,
      quoteTtlMs: deps.convertQuoteTtlMs,
      instances: deps.apiInstances,
    }),
  });
}
