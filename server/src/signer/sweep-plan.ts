import { type Address, encodeFunctionData, erc20Abi, type Hex, keccak256, type PublicClient } from 'viem';
import type { SweepKind } from '../db/schema-custody.ts';
import { type CoinCode, coinNetworks, nativeCoinOf, toChainUnits } from '../modules/catalogue/catalogue.ts';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import {
  addressesInFlight,
  bookedNativeOf,
  insertSweep,
  maxSweepNonce,
  type SweepCandidate,
  sweepCandidates,
} from '../modules/custody/sweeps-repository.ts';
import { lockHotWallet, maxRecordedNonce } from './repository.ts';
import { maxOf, NATIVE_GAS, type SignerContext, TOKEN_GAS } from './signer-types.ts';
import { firstTry, sendTry } from './sweep-tries.ts';

/**
 * Planning new sweeps: for each deposit address holding credited, unswept coins (at least one minimum
 * deposit of them), either sweep them to the hot wallet, or, for a token when the address lacks gas,
 * first top its gas up from the hot wallet (the sweep follows in a later round, once the top-up is
 * mined). Each transaction is signed and recorded before it is broadcast.
 *
 * Sweeps are legacy-priced (`gasPrice`): the most a transaction can cost is then gas x price, so a
 * native sweep can send "balance - that" and still be paid for. The gas actually paid comes from the
 * receipt when it is settled.
 */

/** Addresses planned per network and round (a bound on a round's work). */
const CANDIDATES_LIMIT = 20;
/** A top-up covers this many token sweeps at the current price, so a small price rise does not strand it. */
const TOPUP_SWEEPS = 2n;

export async function planSweeps(ctx: SignerContext, network: EvmNetwork): Promise<number> {
  const client = ctx.clientFor(network);
  if (!client || !ctx.options.depositAccount) return 0;
  const busy = await addressesInFlight(ctx.db, network);
  const minimums = minimumsOf(network);
  const candidates = await sweepCandidates(ctx.db, network, minimums, CANDIDATES_LIMIT);
  if (candidates.length === 0) return 0;
  // One price for the round: every transaction of it is priced alike.
  const round = { minimums, gasPrice: await client.getGasPrice() };
  let recorded = 0;
  for (const candidate of candidates) {
    if (busy.has(candidate.address)) continue;
    if (await planOne(ctx, client, network, candidate, round)) {
      busy.add(candidate.address);
      recorded += 1;
    }
  }
  return recorded;
}

/** One minimum deposit of each coin of the network, in chain units: below it a sweep is not worth its gas. */
export function minimumsOf(network: EvmNetwork): Map<CoinCode, bigint> {
  return new Map(
    coinNetworks
      .filter((p) => p.network === network)
      .map((p) => [p.coin, toChainUnits(p.coin, network, p.minDepositMinor)] as const),
  );
}

async function planOne(
  ctx: SignerContext,
  client: PublicClient,
  network: EvmNetwork,
  c: SweepCandidate,
  round: { minimums: ReadonlyMap<CoinCode, bigint>; gasPrice: bigint },
) {
  const { gasPrice } = round;
  const chain = ctx.options.chains()[network];
  const threshold = round.minimums.get(c.coin);
  if (!chain || threshold === undefined) return false;
  const isNative = c.coin === nativeCoinOf(network);
  const token = isNative ? undefined : chain.tokens[c.coin];
  if (!isNative && !token) return false;
  const address = c.address as Address;
  const nativeBalance = await client.getBalance({ address });
  if (isNative) {
    // The sweep pays its own gas out of the coins it sweeps (unswept is net of gas paid before).
    const amount = minOf(c.unsweptChainAmount, nativeBalance) - NATIVE_GAS * gasPrice;
    if (amount < threshold) return false;
    return record(ctx, client, network, c, { kind: 'sweep', amount, gasPrice, gas: NATIVE_GAS });
  }
  const held = await client.readContract({
    address: token as Address,
    abi: erc20Abi,
    functionName: 'balanceOf',
    args: [address],
  });
  const amount = minOf(c.unsweptChainAmount, held);
  if (amount < threshold) return false;
  const gasNeeded = TOKEN_GAS * gasPrice;
  // Gas is booked against the deposit addresses' custody account: decide from the coins booked for
  // this address (never from native coins no one credited), and from the chain when it holds less.
  const gasHeld = minOf(await bookedNativeOf(ctx.db, network, c.address), nativeBalance);
  if (gasHeld < gasNeeded) {
    const topUp = gasNeeded * TOPUP_SWEEPS - (gasHeld > 0n ? gasHeld : 0n);
    return record(ctx, client, network, c, { kind: 'gas_topup', amount: topUp, gasPrice, gas: NATIVE_GAS });
  }
  return record(ctx, client, network, c, { kind: 'sweep', amount, gasPrice, gas: TOKEN_GAS, token });
}

const minOf = (a: bigint, b: bigint) => (a < b ? a : b);

interface Plan {
  kind: SweepKind;
  /** Chain units: of the candidate's coin for a sweep, of the native coin for a top-up. */
  amount: bigint;
  gasPrice: bigint;
  gas: bigint;
  token?: Address;
}

/** Signs and records one top-up or sweep (nonce handed out under the sender's lock), then broadcasts it. */
async function record(ctx: SignerContext, client: PublicClient, network: EvmNetwork, c: SweepCandidate, plan: Plan) {
  const chain = ctx.options.chains()[network];
  const depositAccount = ctx.options.depositAccount;
  if (!chain || !depositAccount) return false;
  const owner = depositAccount(network, c.derivationIndex, c.branch);
  if (owner.address.toLowerCase() !== c.address.toLowerCase()) {
    // Never signed for, nor topped up with gas; skipped, not thrown: one bad row (a wrong index, an older
    // xpub in a restored database) must not stop every other address of the network (review 37b, finding 6).
    ctx.log('SWEEP KEY MISMATCH: address skipped, an operator must fix its key row', {
      network,
      address: c.address,
      key: `${c.branch}/${c.derivationIndex}`,
      derives: owner.address,
    });
    return false;
  }
  const sender = plan.kind === 'gas_topup' ? ctx.account : owner;
  const hot = ctx.account.address;
  const row = await ctx.db.transaction().execute(async (trx) => {
    await ctx.options.fence?.(trx);
    await lockHotWallet(trx, chain.chainId, sender.address);
    const pending = BigInt(await client.getTransactionCount({ address: sender.address, blockTag: 'pending' }));
    const swept = await maxSweepNonce(trx, chain.chainId, sender.address);
    // The hot wallet's nonces are shared with withdrawals (signer-sign.ts nextNonce).
    const paid = plan.kind === 'gas_topup' ? await maxRecordedNonce(trx, chain.chainId, sender.address) : -1n;
    const nonce = maxOf(pending, swept + 1n, paid + 1n);
    const raw = await sender.signTransaction({
      type: 'legacy',
      chainId: chain.chainId,
      nonce: Number(nonce),
      to: plan.kind === 'gas_topup' ? (c.address as Address) : (plan.token ?? hot),
      value: plan.token ? 0n : plan.amount,
      data: plan.token
        ? encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [hot, plan.amount] })
        : undefined,
      gas: plan.gas,
      gasPrice: plan.gasPrice,
    });
    const at = ctx.now();
    return insertSweep(trx, {
      kind: plan.kind,
      network,
      chain_id: String(chain.chainId),
      coin: plan.kind === 'gas_topup' ? nativeCoinOf(network) : c.coin,
      deposit_address: c.address,
      from_address: sender.address,
      to_address: plan.kind === 'gas_topup' ? c.address : hot,
      chain_amount: plan.amount.toString(),
      nonce: nonce.toString(),
      gas_limit: plan.gas.toString(),
      gas_price_wei: plan.gasPrice.toString(),
      tx_hash: keccak256(raw as Hex),
      raw_tx: raw,
      state: 'signed',
      created_at: at,
      updated_at: at,
    });
  });
  ctx.log(`${plan.kind} recorded`, {
    sweepId: row.id,
    network,
    address: c.address,
    coin: row.coin,
    chainAmount: row.chain_amount,
  });
  await sendTry(ctx, client, firstTry(row));
  return true;
}
