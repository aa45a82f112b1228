import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CoinCode } from '../../catalogue/catalogue.ts';
import type { EvmNetwork } from '../../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../../chain/chain-config.ts';
import { parseDecimal, type Rational, rational } from '../../prices/rational.ts';
import { floorMinor } from '../moonpay/decimals.ts';
import { isUrlSignatureValid } from '../moonpay/signing.ts';
import { createChainPayer } from './chain-payer.ts';
import { buyPage, donePage, errorPage, sellPage } from './checkout-pages.ts';
import { buyQuote, fiatText, findCurrency, limits, sellQuote, usdRate } from './pricing.ts';
import { createSandboxProvider } from './sandbox-provider.ts';
import { createWebhookSender, seededRandom } from './webhook-sender.ts';

/**
 * The embedded default payment provider: an HTTP server on loopback speaking MoonPay's API paths
 * and shapes (quotes, limits, transaction look-ups with `Authorization: Api-Key`), its own checkout
 * pages behind signed widget URLs, real on-chain delivery on the local chains, and signed webhooks
 * (duplicated and reordered like the real service's at-least-once delivery).
 */
export interface SandboxRampOptions {
  chains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>;
  publishableKey: string;
  secretKey: string;
  webhookKey: string;
  /** Where webhooks go; set after our API listens. */
  webhookUrl?: string | null;
  port?: number;
  seed?: number;
  duplicateRate?: number;
  reorderRate?: number;
  stepMs?: number;
  /** How long a sell waits for its deposit. */
  sellWindowMs?: number;
  log?: (msg: string) => void;
}

const BODY_BYTES_MAX = 16 * 1024;

export async function startSandboxRamp(options: SandboxRampOptions) {
  const log = options.log ?? (() => {});
  const random = seededRandom(options.seed ?? 20_261_126);
  let webhookUrl = options.webhookUrl ?? null;
  const webhooks = createWebhookSender({
    url: () => webhookUrl,
    webhookKey: options.webhookKey,
    duplicateRate: options.duplicateRate ?? 0.3,
    random,
    log,
  });
  const payer = createChainPayer(options.chains);
  const provider = createSandboxProvider({
    payer,
    webhooks,
    random,
    reorderRate: options.reorderRate ?? 0.3,
    stepMs: options.stepMs ?? 400,
    log,
  });
  const sellWindowMs = options.sellWindowMs ?? 30 * 60_000;

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => {
      log(`sandbox ramp: ${(err as Error).message}`);
      if (!res.headersSent) json(res, 500, { message: 'sandbox error', type: 'InternalError' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    const parts = url.pathname.split('/').filter(Boolean);
    if (req.method === 'GET' && parts[0] === 'v3' && parts[1] === 'currencies' && parts.length === 4) {
      return api(res, parts[2] ?? '', parts[3] ?? '', url.searchParams);
    }
    if (req.method === 'GET' && url.pathname.startsWith('/v1/transactions/ext/')) {
      if (!authorised(req)) return json(res, 401, { message: 'Invalid API key', type: 'UnauthorizedError' });
      return json(res, 200, provider.byExternalId(decodeURIComponent(parts[3] ?? '')));
    }
    if (req.method === 'GET' && parts[0] === 'v3' && parts[1] === 'sell_transactions' && parts.length === 3) {
      if (!authorised(req)) return json(res, 401, { message: 'Invalid API key', type: 'UnauthorizedError' });
      const t = provider.get(parts[2] ?? '');
      return t ? json(res, 200, t) : json(res, 404, { message: 'Transaction not found', type: 'NotFoundError' });
    }
    if (req.method === 'GET' && (url.pathname === '/buy' || url.pathname === '/sell')) {
      return checkoutPage(res, url);
    }
    if (req.method === 'POST' && (url.pathname === '/buy/pay' || url.pathname === '/sell/confirm')) {
      return checkoutSubmit(req, res, url.pathname);
    }
    json(res, 404, { message: 'Not found', type: 'NotFoundError' });
  }

  const authorised = (req: IncomingMessage) => req.headers.authorization === `Api-Key ${options.secretKey}`;

  function api(res: ServerResponse, code: string, what: string, q: URLSearchParams) {
    if (q.get('apiKey') !== options.publishableKey)
      return json(res, 401, { message: 'Invalid API key', type: 'UnauthorizedError' });
    const currency = findCurrency(code);
    const fiat = (what === 'sell_quote' ? q.get('quoteCurrencyCode') : q.get('baseCurrencyCode')) ?? '';
    const rate = usdRate(fiat);
    if (!currency || !rate) return json(res, 400, { message: 'Unsupported currency', type: 'BadRequestError' });
    let amount: ReturnType<typeof parseDecimal> | null = null;
    try {
      if (what !== 'limits') amount = parseDecimal(q.get('baseCurrencyAmount') ?? '');
    } catch {
      return json(res, 400, { message: 'Invalid baseCurrencyAmount', type: 'BadRequestError' });
    }
    if (what === 'limits') return json(res, 200, { ...limits(currency, rate), paymentMethod: q.get('paymentMethod') });
    if (!amount || amount.num === 0n)
      return json(res, 400, { message: 'Invalid baseCurrencyAmount', type: 'BadRequestError' });
    if (what === 'buy_quote') {
      const quote = buyQuote(currency, rate, amount);
      if (quote === 'too_small') return json(res, 400, { message: 'Amount too low', type: 'BadRequestError' });
      return json(res, 200, { ...quote, currency: { code }, paymentMethod: q.get('paymentMethod') }, NUMERIC);
    }
    if (what === 'sell_quote') {
      const quote = sellQuote(currency, rate, amount);
      const payoutMethods = currency.chatAppOnly ? ['chat_app'] : ['bank_in', 'pix', 'upi', 'chat_app'];
      return json(res, 200, { ...quote, payoutMethods }, NUMERIC);
    }
    json(res, 404, { message: 'Not found', type: 'NotFoundError' });
  }

  function signedParams(url: URL): URLSearchParams | null {
    if (url.searchParams.get('apiKey') !== options.publishableKey) return null;
    return isUrlSignatureValid(`http://sandbox${url.pathname}${url.search}`, options.secretKey)
      ? url.searchParams
      : null;
  }

  function checkoutPage(res: ServerResponse, url: URL) {
    const q = signedParams(url);
    if (!q) return html(res, 403, errorPage('This checkout link is not signed by the wallet.'));
    const currency = findCurrency(
      url.pathname === '/buy' ? (q.get('currencyCode') ?? '') : (q.get('baseCurrencyCode') ?? ''),
    );
    const fiat = (url.pathname === '/buy' ? q.get('baseCurrencyCode') : q.get('quoteCurrencyCode')) ?? '';
    const rate = usdRate(fiat);
    if (!currency || !rate) return html(res, 400, errorPage('Unsupported currency.'));
    const amount = parseDecimal(q.get('baseCurrencyAmount') ?? '0');
    const fiatCode = fiat.toUpperCase();
    if (url.pathname === '/buy') {
      const quote = buyQuote(currency, rate, amount);
      if (quote === 'too_small') return html(res, 400, errorPage('Amount too low.'));
      return html(
        res,
        200,
        buyPage({
          query: url.search,
          fiat: fiatCode,
          total: fiatText(parseDecimal(quote.totalAmount)),
          crypto: quote.quoteCurrencyAmount,
          coin: currency.coin,
          fee: fiatText(add(parseDecimal(quote.feeAmount), parseDecimal(quote.networkFeeAmount))),
          wallet: q.get('walletAddress') ?? '',
          method: q.get('paymentMethod') ?? 'credit_debit_card',
        }),
      );
    }
    const quote = sellQuote(currency, rate, amount);
    return html(
      res,
      200,
      sellPage({
        query: url.search,
        coin: currency.coin,
        crypto: quote.baseCurrencyAmount,
        fiat: fiatCode,
        receive: fiatText(parseDecimal(quote.quoteCurrencyAmount)),
        payout: q.get('payoutLabel') ?? q.get('payoutMethod') ?? '',
      }),
    );
  }

  async function checkoutSubmit(req: IncomingMessage, res: ServerResponse, path: string) {
    const form = new URLSearchParams(await readBody(req));
    const flowPath = path === '/buy/pay' ? '/buy' : '/sell';
    const q = signedParams(new URL(`${flowPath}${form.get('q') ?? ''}`, 'http://sandbox'));
    if (!q) return html(res, 403, errorPage('This checkout link is not signed by the wallet.'));
    const params = Object.fromEntries(q.entries());
    const redirect = safeRedirect(q.get('redirectURL'));
    if (path === '/buy/pay') {
      const currency = findCurrency(params.currencyCode ?? '');
      const rate = usdRate(params.baseCurrencyCode ?? '');
      if (!currency || !rate) return html(res, 400, errorPage('Unsupported currency.'));
      const quote = buyQuote(currency, rate, parseDecimal(params.baseCurrencyAmount ?? '0'));
      if (quote === 'too_small') return html(res, 400, errorPage('Amount too low.'));
      const card = (form.get('card') ?? '').replace(/\D/g, '') || null;
      provider.startBuy({ ...params, quoteCurrencyAmount: quote.quoteCurrencyAmount }, card);
      return html(res, 200, donePage('Payment received. Your crypto is on its way.', redirect));
    }
    const currency = findCurrency(params.baseCurrencyCode ?? '');
    if (!currency) return html(res, 400, errorPage('Unsupported currency.'));
    const crypto = parseDecimal(params.baseCurrencyAmount ?? '0');
    const expected = floorMinor(crypto, payer.chainDecimals(currency.network as EvmNetwork, currency.coin as CoinCode));
    const outcome = form.get('outcome');
    const sellParams = { ...params, currencyCode: currency.code };
    const t =
      outcome === 'cancel'
        ? provider.cancelSell(sellParams)
        : provider.startSell(
            sellParams,
            expected,
            sellWindowMs,
            outcome === 'reject_payout' ? 'reject_payout' : 'confirm',
          );
    const back = redirect ? new URL(redirect) : null;
    if (back) {
      back.searchParams.set('transactionId', t.id);
      back.searchParams.set('baseCurrencyCode', currency.code);
      back.searchParams.set('baseCurrencyAmount', params.baseCurrencyAmount ?? '');
      back.searchParams.set('depositWalletAddress', t.depositWalletAddress ?? '');
    }
    const message = outcome === 'cancel' ? 'Sell cancelled.' : 'Sell confirmed. Your wallet sends the coins now.';
    return html(res, 200, donePage(message, back?.toString() ?? null));
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    provider,
    setWebhookUrl(next: string) {
      webhookUrl = next;
    },
    settle: () => webhooks.settle(),
    async close() {
      webhookUrl = null;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}

export type SandboxRamp = Awaited<ReturnType<typeof startSandboxRamp>>;

const add = (a: Rational, b: Rational) => rational(a.num * b.den + b.num * a.den, a.den * b.den);

/** Fields sent as JSON numbers, like MoonPay's answers. */
const NUMERIC = new Set([
  'baseCurrencyAmount',
  'quoteCurrencyAmount',
  'quoteCurrencyPrice',
  'feeAmount',
  'extraFeeAmount',
  'networkFeeAmount',
  'totalAmount',
]);

function json(res: ServerResponse, status: number, body: unknown, numeric?: Set<string>) {
  let text = JSON.stringify(body);
  // Our numbers are exact decimal strings; write them as JSON numbers without going through a float.
  if (numeric)
    text = text.replace(/"(\w+)":"(\d+(?:\.\d+)?)"/g, (m, k: string, v: string) =>
      numeric.has(k) ? `"${k}":${v}` : m,
    );
  res.writeHead(status, { 'content-type': 'application/json' }).end(text);
}

function html(res: ServerResponse, status: number, body: string) {
  res
    .writeHead(status, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'",
    })
    .end(body);
}

async function readBody(req: IncomingMessage): Promise<string> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_BYTES_MAX) throw new Error('form too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Only http(s) return addresses (never javascript: and the like). */
function safeRedirect(value: string | null): string | null {
  if (!value) return null;
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}
