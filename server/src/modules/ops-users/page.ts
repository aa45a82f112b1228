import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { NotFoundError } from '../../errors/app-error.ts';
import { allowlistState } from '../allowlist/policy.ts';
import { findAccountById } from '../auth/accounts-repository.ts';
import { coins } from '../catalogue/catalogue.ts';
import { freezeState } from '../security/freeze-state.ts';
import { outflowHold } from '../withdrawals/outflow-holds.ts';
import { maskEmail, maskFields, maskIp, maskText } from './masking.ts';
import * as view from './user-view.ts';

const iso = (d: Date | null) => (d === null ? null : d.toISOString());

/**
 * The user page (issue 32): profile, balances, the latest rows of each kind of activity, sessions,
 * security state and tickets. Every personal value masked (masking.ts), whoever asks; the full value
 * is one audited reveal away (reveal.ts). Each list is bounded (user-view.ts PAGE_ROWS).
 */
export async function userPage(db: Kysely<Database>, userId: string, now: Date) {
  const account = await findAccountById(db, userId);
  if (!account) throw new NotFoundError('No such user');
  const [balances, deposits, withdrawals, conversions, exchangeOrders, rampOrders, sessions, tickets, methods] =
    await Promise.all([
      view.balances(db, userId),
      view.deposits(db, userId),
      view.withdrawals(db, userId),
      view.conversions(db, userId),
      view.exchangeOrders(db, userId),
      view.rampOrders(db, userId),
      view.liveSessions(db, userId, now),
      view.tickets(db, userId),
      view.paymentMethods(db, userId),
    ]);
  return {
    profile: {
      id: userId,
      username: account.username,
      email: maskEmail(account.email),
      nickname: maskText(account.nickname),
      country: account.country,
      createdAt: account.created_at.toISOString(),
    },
    coins: coins.map((c) => ({ ...c })),
    balances,
    deposits: deposits.map((d) => ({
      id: d.id,
      coin: d.coin,
      network: d.network,
      txHash: d.tx_hash,
      address: d.to_address,
      amountMinor: d.amount_minor,
      state: d.state,
      createdAt: d.created_at.toISOString(),
    })),
    withdrawals: withdrawals.map((w) => ({
      id: w.id,
      coin: w.coin,
      network: w.network,
      address: w.address,
      amountMinor: w.amount_minor,
      feeMinor: w.fee_minor,
      state: w.state,
      reason: w.reason,
      txHash: w.tx_hash,
      origin: w.origin,
      createdAt: w.created_at.toISOString(),
    })),
    conversions: conversions.map((c) => ({
      id: c.id,
      fromAsset: c.from_asset,
      toAsset: c.to_asset,
      amountMinor: c.amount_minor,
      feeMinor: c.fee_minor,
      receiveMinor: c.receive_minor,
      createdAt: c.created_at.toISOString(),
    })),
    exchangeOrders: exchangeOrders.map((o) => ({
      id: o.id,
      state: o.state,
      sendCoin: o.send_coin,
      sendNetwork: o.send_network,
      sendAmountMinor: o.send_amount_minor,
      receiveCoin: o.receive_coin,
      receiveNetwork: o.receive_network,
      receiveAmountMinor: o.payout_amount_minor ?? o.estimated_receive_minor,
      createdAt: o.created_at.toISOString(),
    })),
    rampOrders: rampOrders.map((o) => ({
      id: o.id,
      side: o.side,
      state: o.state,
      reason: o.state_reason,
      coin: o.coin,
      network: o.network,
      fiat: o.fiat,
      fiatAmountMinor: String(o.fiat_amount_minor),
      cryptoAmountMinor: String(o.crypto_amount_minor),
      createdAt: o.created_at.toISOString(),
    })),
    sessions: sessions.map((s) => ({
      id: s.id,
      createdAt: s.created_at.toISOString(),
      lastSeenAt: s.last_seen_at.toISOString(),
      userAgent: s.user_agent,
      ip: maskIp(s.ip),
      waiting: s.factor_pending || s.device_pending,
    })),
    paymentMethods: methods.map((m) => ({ id: m.id, kind: m.kind, active: m.active, shown: maskFields(m.shown) })),
    tickets: tickets.map((t) => ({
      id: t.id,
      state: t.state,
      txRef: t.tx_ref,
      createdAt: t.created_at.toISOString(),
      updatedAt: t.updated_at.toISOString(),
    })),
    security: await securityState(db, userId, now),
  };
}

async function securityState(db: Kysely<Database>, userId: string, now: Date) {
  const [factors, freeze, hold, allowlist, operatorLocks] = await Promise.all([
    view.factors(db, userId),
    freezeState(db, userId, now),
    outflowHold(db, userId, now),
    allowlistState(db, userId, now),
    view.operatorLocks(db, userId),
  ]);
  return {
    factors,
    freeze: {
      frozen: freeze.frozen,
      byOperator: freeze.byOperator,
      frozenAt: iso(freeze.frozenAt),
      thawsAt: iso(freeze.thawsAt),
    },
    operatorFreeze: operatorLocks.freeze,
    withdrawalHold: operatorLocks.withdrawalHold,
    outflowHold: hold && { reason: hold.event, since: hold.since.toISOString(), until: hold.until.toISOString() },
    allowlist: { on: allowlist.on, offAt: iso(allowlist.offAt) },
  };
}
