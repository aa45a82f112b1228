import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from 'fastify';
import { apiModules } from './api-modules.ts';
import type { AppDeps } from './app-deps.ts';
import { ServiceUnavailableError } from './errors/app-error.ts';
import { ErrorResponse } from './errors/schema.ts';
import { registerAuthentication } from './http/authenticate.ts';
import {
  type ConsoleSurface,
  cameThroughConsoleListener,
  DEFAULT_CONSOLE_ORIGIN,
  registerConsoleSurface,
} from './http/console-surface.ts';
import { isApiRequest } from './http/csrf.ts';
import { registerErrorHandling } from './http/error-handler.ts';
import { createMetricsRegistry, registerMetrics } from './http/metrics.ts';
import { registerOpenApi } from './http/openapi.ts';
import { createRateLimitCounter, pgRateLimitStore } from './http/rate-limit-store.ts';
import { createRemoteOrigins, pinnedRemoteOrigins } from './http/remote-registry.ts';
import { registerReplicaReads } from './http/replica-reads.ts';
import { trackApiRouteMethods } from './http/route-methods.ts';
import { withStrictInput } from './http/safe-text.ts';
import { registerSecurity } from './http/security.ts';
import { serializerFactory } from './http/serializers.ts';
import { registerStatic } from './http/static.ts';
import { fastifyTrustProxy, warnUnlistedProxy } from './http/trust-proxy.ts';
import { createAuthModule } from './modules/auth/auth-module.ts';
import { Me } from './modules/auth/schemas.ts';
import { redisThrottleStore } from './modules/auth/throttles-redis.ts';
import { platformAddresses } from './modules/catalogue/platform-addresses.ts';
import { Conversion, Quote } from './modules/convert/schemas.ts';
import { isOrderDepositAddress } from './modules/exchange/repository.ts';
import { ExchangeOrder, ExchangeRate } from './modules/exchange/schemas.ts';
import { Balance } from './modules/ledger/schemas.ts';
import { createMailModule } from './modules/mail/mail-module.ts';
import { cancelPendingSells, endSellsOnFreeze } from './modules/ramp/cancel.ts';
import { UserSettings } from './modules/settings/schemas.ts';
import { createLocalStore } from './modules/uploads/storage.ts';

export type { AppDeps } from './app-deps.ts';

export type App = FastifyInstance;

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

/**
 * What every request meets before a module: its id, the draining refusal, no caching of API answers,
 * the shared schemas, cookies and multipart.
 */
function registerBase(app: App): void {
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
    if (isApiRequest(request) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
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
}

/**
 * Builds the Fastify app without listening: plugins load on `app.ready()`,
 * `app.inject()` or `app.listen()`. Closing the app does not close `deps.db`.
 */
export function buildApp(deps: AppDeps): App {
  const now = deps.now ?? (() => new Date());
  const staticDir = deps.staticDir ?? null;

  const app: App = Fastify({
    ...(deps.logger ? { loggerInstance: deps.logger } : { logger: false }),
    bodyLimit: deps.bodyLimit ?? 1024 * 1024,
    trustProxy: fastifyTrustProxy(deps.trustProxy),
    genReqId: () => randomUUID(),
    logController: new DebugRequestLog(),
    frameworkErrors: answerMalformedRequest,
    // While draining, answer late requests ourselves (below) so they get the one error shape.
    return503OnClosing: false,
    schemaController: { compilersFactory: { buildSerializer: serializerFactory() } },
  });
  // Control characters, lone surrogates and loose integers are refused in every field, for every route.
  app.setValidatorCompiler(withStrictInput(TypeBoxValidatorCompiler));

  registerBase(app);
  warnUnlistedProxy(app, deps.trustProxy);
  registerReplicaReads(app, deps.reads);

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
  const auth = createAuthModule({
    db: deps.db,
    now,
    ...deps.auth,
    ...(deps.payouts ? { sealKey: deps.payouts.key } : {}),
    ...(deps.redis ? { throttles: redisThrottleStore(deps.redis) } : {}),
    onMailQueued: () => mail.worker.nudge(),
    // A pending sell's checkout link ends with the sessions that may have seen it (issue 38 review 2).
    onSessionsEnded: cancelPendingSells,
    // A freeze ends them too, and rejects a sell's payout the signer has not taken (review 31, F2).
    onAccountFrozen: endSellsOnFreeze,
  });
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
  const remoteOrigins = createRemoteOrigins(
    registryFile,
    (err) => app.log.warn({ err }, 'cannot read remotes.json; keeping the previous remote origins'),
    deps.remoteOrigins ?? pinnedRemoteOrigins(process.env.REMOTE_ORIGINS),
  );
  // The operator console and /api/ops answer only on the console's own listener and origin (issue 38 item 5).
  const consoleSurface: ConsoleSurface = {
    origin: deps.console?.origin ?? DEFAULT_CONSOLE_ORIGIN,
    isConsoleRequest: deps.console?.isConsoleRequest ?? cameThroughConsoleListener,
  };
  registerSecurity(app, {
    isConsoleRequest: consoleSurface.isConsoleRequest,
    rateLimit: deps.rateLimit ?? { max: 1000, windowMs: 60_000 },
    rateLimitStore:
      deps.redis || deps.rateLimitStore !== 'database' ? undefined : pgRateLimitStore(createRateLimitCounter(deps.db)),
    redis: deps.redis,
    remoteOrigins,
  });
  // After the headers above: a refused request still carries them.
  registerConsoleSurface(app, consoleSurface);
  registerOpenApi(app);
  const methodsOf = trackApiRouteMethods(app);

  // The platform's own addresses, refused as withdrawal and exchange targets.
  const hotWallets = deps.hotWallets ?? {};
  const platform = platformAddresses({
    hotWallets: () => hotWallets,
    ...(deps.wallet?.chains ? { chains: deps.wallet.chains } : {}),
    isOrderDepositAddress: (network, address) => isOrderDepositAddress(deps.db, network, address),
  });

  // API modules: route -> service -> repository, each a plugin taking its services (api-modules.ts).
  app.register(apiModules({ deps, now, auth, mail, uploadStore, uploadsDir, platform }), { prefix: '/api' });
  // The dev mailbox and the dev clock are not here: they have their own loopback-only listener
  // (dev/dev-server.ts, started by main.ts), so the app port answers 404 for them.

  const spaFallback =
    staticDir === null
      ? undefined
      : registerStatic(app, staticDir, {
          isConsoleRequest: consoleSurface.isConsoleRequest,
          userIdOf: async (request) =>
            (await (deps.sessionResolver ?? auth.sessions.resolver).resolve(request))?.userId ?? null,
        });
  registerErrorHandling(app, spaFallback ? { spaFallback, methodsOf } : { methodsOf });
  return app;
}
