import { type Address, type Hex, keccak256, type PublicClient, parseTransaction } from 'viem';
import { type CoinCode, nativeCoinOf } from '../modules/catalogue/catalogue.ts';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import { insertSweepAttempt, lockOpenSweep } from '../modules/custody/sweep-attempts.ts';
import { bookedNativeOf, derivationIndexOf, type SweepRow } from '../modules/custody/sweeps-repository.ts';
import { bumpFee, maxOf, priceRefused, type SignerContext } from './signer-types.ts';
import { minimumsOf } from './sweep-plan.ts';
import { type SweepTry, tryOfAttempt } from './sweep-tries.ts';

/**
 * Fee-bumped replacements of a stuck top-up or sweep, as for withdrawals (signer-replace.ts): the same
 * nonce, to, data and gas, `gasPrice` raised by at least 12.5% (geth needs +10%) or to the node's current
 * price, signed and recorded (fenced) before it is broadcast. What each kind can pay:
 * - a gas top-up: the hot wallet pays, the value stays;
 * - a token sweep: the deposit address pays from its booked (topped-up) gas; without enough, no replacement;
 * - a native sweep pays its own gas out of what it sends: value + gas x new price must fit the address's
 *   booked native coins (and its balance), so the value shrinks by the extra gas; below one minimum
 *   deposit it is not worth replacing.
 * Without a replacement the newest attempt is rebroadcast, as before.
 */

/**
 * True when replacements are left and `latest` has waited long enough since a node took it, or nodes
 * refuse it for its price (then no node holds it and no timer would ever run).
 */
export function replacementDue(ctx: SignerContext, latest: SweepTry): boolean {
  if (latest.attempt >= ctx.maxReplacements) return false;
  if (priceRefused(latest.lastError)) return true;
  if (latest.broadcastAt === null) return false;
  return ctx.now().getTime() - latest.broadcastAt.getTime() >= ctx.replaceAfterMs;
}

/** Signs and records a replacement of `latest` (the row's newest attempt); undefined when none was recorded. */
export async function replaceSweep(
  ctx: SignerContext,
  client: PublicClient,
  row: SweepRow,
  latest: SweepTry,
): Promise<SweepTry | undefined> {
  const gasPriceWei = maxOf(bumpFee(latest.gasPriceWei), await client.getGasPrice());
  const details = { sweepId: row.id, kind: row.kind, attempt: latest.attempt, gasPriceWei: gasPriceWei.toString() };
  const cap = ctx.options.maxFeePerGasCapWei;
  if (cap !== undefined && gasPriceWei > cap) {
    ctx.log('sweep replacement would exceed the fee cap; rebroadcasting instead', details);
    return undefined;
  }
  const chainAmount = await payableAmount(ctx, client, row, latest, gasPriceWei);
  if (chainAmount === undefined) {
    ctx.log('sweep cannot pay a higher fee; rebroadcasting instead', details);
    return undefined;
  }
  const raw = await signReplacement(ctx, row, latest, chainAmount, gasPriceWei);
  const recorded = await ctx.db.transaction().execute(async (trx) => {
    await ctx.options.fence?.(trx);
    // Settled meanwhile, or another signer replaced it first: nothing to add on top of what we saw.
    if ((await lockOpenSweep(trx, row.id)) !== latest.attempt) return undefined;
    const at = ctx.now();
    return insertSweepAttempt(trx, {
      sweep_id: row.id,
      attempt: latest.attempt + 1,
      chain_amount: chainAmount.toString(),
      gas_price_wei: gasPriceWei.toString(),
      tx_hash: keccak256(raw),
      raw_tx: raw,
      last_error: null,
      broadcast_at: null,
      created_at: at,
      updated_at: at,
    });
  });
  if (!recorded) return undefined;
  ctx.log(`${row.kind} replacement recorded`, {
    ...details,
    attempt: recorded.attempt,
    txHash: recorded.tx_hash,
    replaces: latest.txHash,
    chainAmount: recorded.chain_amount,
  });
  return tryOfAttempt(recorded);
}

/**
 * What the replacement sends (chain units of the row's coin), or undefined when its sender cannot pay.
 * A sweep's gas is booked against the deposit addresses' custody account, so the extra gas must come
 * out of the native coins the book holds for the address (`bookedNativeOf`, plus what this open sweep
 * already reserved: its first signing's value and gas), never from native coins no one credited: a
 * native sweep sends at most booked - gas x new price; a token sweep is replaced only when the booked
 * coins cover gas x new price (else it is rebroadcast, and a top-up follows once it settles).
 */
async function payableAmount(
  ctx: SignerContext,
  client: PublicClient,
  row: SweepRow,
  latest: SweepTry,
  gasPriceWei: bigint,
): Promise<bigint | undefined> {
  if (row.kind === 'gas_topup') return latest.chainAmount;
  const network = row.network as EvmNetwork;
  const native = row.coin === nativeCoinOf(network);
  const maxGasWei = BigInt(row.gas_limit) * gasPriceWei;
  const reserved = (native ? BigInt(row.chain_amount) : 0n) + BigInt(row.gas_limit) * BigInt(row.gas_price_wei);
  const booked = (await bookedNativeOf(ctx.db, network, row.deposit_address)) + reserved;
  const balance = await client.getBalance({ address: row.from_address as Address });
  const held = booked < balance ? booked : balance;
  if (!native) return held >= maxGasWei ? latest.chainAmount : undefined;
  const afterGas = held - maxGasWei;
  const amount = afterGas < latest.chainAmount ? afterGas : latest.chainAmount;
  const minimum = minimumsOf(network).get(row.coin as CoinCode);
  return minimum !== undefined && amount >= minimum ? amount : undefined;
}

/** The latest attempt re-signed at the new price (and, for a native sweep, the new value); same nonce. */
async function signReplacement(
  ctx: SignerContext,
  row: SweepRow,
  latest: SweepTry,
  chainAmount: bigint,
  gasPriceWei: bigint,
): Promise<Hex> {
  const previous = parseTransaction(latest.raw as Hex);
  if (previous.type !== 'legacy' || previous.nonce === undefined || previous.chainId === undefined)
    throw new Error(`sweep ${row.id}: attempt ${latest.attempt} is not a signed legacy transaction`);
  const nativeValue = row.kind === 'gas_topup' || row.coin === nativeCoinOf(row.network as EvmNetwork);
  const sender = await senderOf(ctx, row);
  return sender.signTransaction({
    type: 'legacy',
    chainId: previous.chainId,
    nonce: previous.nonce,
    to: previous.to,
    value: nativeValue ? chainAmount : 0n,
    data: previous.data,
    gas: previous.gas,
    gasPrice: gasPriceWei,
  });
}

/** The key that signed the row: the hot wallet's for a top-up, the deposit address's for a sweep. */
async function senderOf(ctx: SignerContext, row: SweepRow) {
  if (row.kind === 'gas_topup') return ctx.account;
  const network = row.network as EvmNetwork;
  const key = await derivationIndexOf(ctx.db, network, row.deposit_address);
  const depositAccount = ctx.options.depositAccount;
  if (key === undefined || !depositAccount) throw new Error(`sweep ${row.id}: no key for ${row.deposit_address}`);
  const sender = depositAccount(network, key.index, key.branch);
  if (sender.address.toLowerCase() !== row.from_address.toLowerCase())
    throw new Error(
      `sweep ${row.id}: key ${key.branch}/${key.index} on ${network} does not derive ${row.from_address}`,
    );
  return sender;
}
