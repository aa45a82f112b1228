import { randomUUID } from 'node:crypto';
import { type Address, getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import type { CoinCode } from '../../catalogue/catalogue.ts';
import type { EvmNetwork } from '../../catalogue/chains-file.ts';
import { parseDecimal } from '../../prices/rational.ts';
import { floorMinor } from '../moonpay/decimals.ts';
import type { ChainPayer } from './chain-payer.ts';
import { findCurrency } from './pricing.ts';
import type { createWebhookSender } from './webhook-sender.ts';

/**
 * The sandbox provider's transactions and their lives. Statuses are MoonPay's: buys go
 * waitingPayment -> pending -> completed | failed; sells waitingForDeposit -> pending -> completed |
 * failed, and (a sandbox extension) refunded once a failed sell's coins are sent back.
 * Held in memory: the sandbox stands in for a third party; our side keeps its own records.
 */
export interface SandboxTransaction {
  id: string;
  flow: 'buy' | 'sell';
  status: string;
  externalTransactionId: string | null;
  externalCustomerId: string | null;
  currencyCode: string;
  baseCurrencyCode: string;
  baseCurrencyAmount: string;
  quoteCurrencyAmount: string | null;
  walletAddress: string | null;
  depositWalletAddress: string | null;
  refundWalletAddress: string | null;
  paymentMethod: string;
  cryptoTransactionId: string | null;
  failureReason: string | null;
  createdAt: string;
  updatedAt: string;
}

/** Card numbers that decline, as card sandboxes do. */
const DECLINED_CARDS = new Set(['4000000000000002']);
const TRANSACTIONS_MAX = 10_000;

export interface ProviderDeps {
  payer: ChainPayer;
  webhooks: ReturnType<typeof createWebhookSender>;
  random: () => number;
  /** Share of buys whose "completed" webhook overtakes "pending". */
  reorderRate: number;
  stepMs: number;
  log: (msg: string) => void;
}

export function createSandboxProvider(deps: ProviderDeps) {
  const transactions = new Map<string, SandboxTransaction>();
  let failNextPayout = false;
  /** Sells whose payout the bank rejects (the checkout's sandbox button), by transaction id. */
  const rejectPayout = new Set<string>();

  const eventType = (t: SandboxTransaction, kind: 'created' | 'updated' | 'failed') =>
    `${t.flow === 'sell' ? 'sell_' : ''}transaction_${kind}`;
  const snapshot = (t: SandboxTransaction) => ({ ...t });
  const emit = (t: SandboxTransaction, kind: 'created' | 'updated' | 'failed') =>
    deps.webhooks.send(eventType(t, kind), snapshot(t), t.externalCustomerId);
  const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  function setStatus(t: SandboxTransaction, status: string, patch: Partial<SandboxTransaction> = {}) {
    Object.assign(t, patch, { status, updatedAt: new Date().toISOString() });
  }

  function store(t: SandboxTransaction) {
    if (transactions.size >= TRANSACTIONS_MAX) {
      const oldest = transactions.keys().next().value;
      if (oldest !== undefined) transactions.delete(oldest);
    }
    transactions.set(t.id, t);
  }

  function newTransaction(flow: 'buy' | 'sell', p: Record<string, string | undefined>): SandboxTransaction {
    const at = new Date().toISOString();
    return {
      id: randomUUID(),
      flow,
      status: flow === 'buy' ? 'waitingPayment' : 'waitingForDeposit',
      externalTransactionId: p.externalTransactionId ?? null,
      externalCustomerId: p.externalCustomerId ?? null,
      currencyCode: p.currencyCode ?? '',
      baseCurrencyCode: p.baseCurrencyCode ?? '',
      baseCurrencyAmount: p.baseCurrencyAmount ?? '0',
      quoteCurrencyAmount: p.quoteCurrencyAmount ?? null,
      walletAddress: p.walletAddress ?? null,
      depositWalletAddress: null,
      refundWalletAddress: p.refundWalletAddress ?? null,
      paymentMethod: p.paymentMethod ?? 'credit_debit_card',
      cryptoTransactionId: null,
      failureReason: null,
      createdAt: at,
      updatedAt: at,
    };
  }

  async function deliverBuy(t: SandboxTransaction) {
    const currency = findCurrency(t.currencyCode);
    if (!currency || !t.walletAddress || !t.quoteCurrencyAmount) throw new Error('incomplete buy');
    const network = currency.network as EvmNetwork;
    const coin = currency.coin as CoinCode;
    const amountChain = floorMinor(parseDecimal(t.quoteCurrencyAmount), deps.payer.chainDecimals(network, coin));
    const hash = await deps.payer.pay(network, coin, getAddress(t.walletAddress), amountChain);
    return hash;
  }

  /** After the checkout: payment taken, coins sent on chain, webhooks (maybe reordered). */
  async function runBuy(t: SandboxTransaction, cardNumber: string | null) {
    await later(deps.stepMs);
    if (cardNumber && DECLINED_CARDS.has(cardNumber)) {
      setStatus(t, 'failed', { failureReason: 'card_declined' });
      emit(t, 'failed');
      return;
    }
    setStatus(t, 'pending');
    const pending = snapshot(t);
    const reorder = deps.random() < deps.reorderRate;
    if (!reorder) deps.webhooks.send('transaction_updated', pending, t.externalCustomerId);
    try {
      const hash = await deliverBuy(t);
      setStatus(t, 'completed', { cryptoTransactionId: hash });
      emit(t, 'updated');
    } catch (err) {
      deps.log(`sandbox buy ${t.id} delivery failed: ${(err as Error).message}`);
      setStatus(t, 'failed', { failureReason: 'delivery_failed' });
      emit(t, 'failed');
    }
    if (reorder) deps.webhooks.send('transaction_updated', pending, t.externalCustomerId);
  }

  async function watchSell(t: SandboxTransaction, expectedChain: bigint, deadlineMs: number) {
    const currency = findCurrency(t.currencyCode);
    if (!currency || !t.depositWalletAddress) return;
    const network = currency.network as EvmNetwork;
    const coin = currency.coin as CoinCode;
    while (Date.now() < deadlineMs && t.status === 'waitingForDeposit') {
      try {
        const balance = await deps.payer.balanceOf(network, coin, t.depositWalletAddress as Address);
        if (balance >= expectedChain) return settleSell(t, network, coin, balance);
      } catch (err) {
        deps.log(`sandbox sell ${t.id} balance read failed: ${(err as Error).message}`);
      }
      await later(deps.stepMs);
    }
    if (t.status === 'waitingForDeposit') {
      setStatus(t, 'failed', { failureReason: 'deposit_expired' });
      emit(t, 'failed');
    }
  }

  async function settleSell(t: SandboxTransaction, network: EvmNetwork, coin: CoinCode, received: bigint) {
    setStatus(t, 'pending');
    emit(t, 'updated');
    await later(deps.stepMs);
    if (!failNextPayout && !rejectPayout.has(t.id)) {
      setStatus(t, 'completed');
      emit(t, 'updated');
      return;
    }
    failNextPayout = false;
    rejectPayout.delete(t.id);
    setStatus(t, 'failed', { failureReason: 'payout_rejected_by_bank' });
    emit(t, 'failed');
    if (!t.refundWalletAddress) return;
    const hash = await deps.payer.pay(network, coin, getAddress(t.refundWalletAddress), received);
    setStatus(t, 'refunded', { cryptoTransactionId: hash });
    emit(t, 'updated');
  }

  return {
    get: (id: string) => transactions.get(id),
    byExternalId: (ext: string) => [...transactions.values()].filter((t) => t.externalTransactionId === ext),
    failNextPayout() {
      failNextPayout = true;
    },

    startBuy(params: Record<string, string | undefined>, cardNumber: string | null): SandboxTransaction {
      const t = newTransaction('buy', params);
      store(t);
      emit(t, 'created');
      void runBuy(t, cardNumber);
      return t;
    },

    startSell(
      params: Record<string, string | undefined>,
      expectedChain: bigint,
      windowMs: number,
      outcome: 'confirm' | 'reject_payout' = 'confirm',
    ): SandboxTransaction {
      const t = newTransaction('sell', params);
      t.depositWalletAddress = privateKeyToAddress(generatePrivateKey());
      store(t);
      if (outcome === 'reject_payout') {
        if (rejectPayout.size >= TRANSACTIONS_MAX) rejectPayout.clear();
        rejectPayout.add(t.id);
      }
      emit(t, 'created');
      void watchSell(t, expectedChain, Date.now() + windowMs);
      return t;
    },

    /**
     * A sell cancelled in the checkout: the provider's only event is a failure that still carries
     * its deposit address (as MoonPay's can), and the user is sent back with the transaction id.
     */
    cancelSell(params: Record<string, string | undefined>): SandboxTransaction {
      const t = newTransaction('sell', params);
      t.depositWalletAddress = privateKeyToAddress(generatePrivateKey());
      setStatus(t, 'failed', { failureReason: 'cancelled_by_user' });
      store(t);
      emit(t, 'failed');
      return t;
    },
  };
}

export type SandboxProvider = ReturnType<typeof createSandboxProvider>;
