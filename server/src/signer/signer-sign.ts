import type { Kysely } from 'kysely';
import { encodeFunctionData, erc20Abi, type Hex, keccak256, type PublicClient } from 'viem';
import type { Database } from '../db/schema.ts';
import { findCoinNetwork, toChainUnits } from '../modules/catalogue/catalogue.ts';
import type { EvmNetwork } from '../modules/catalogue/chains-file.ts';
import { maxSweepNonce } from '../modules/custody/sweeps-repository.ts';
import { accountFrozenUsers } from '../modules/security/freeze-state.ts';
import { complianceStoppedUsers } from '../modules/withdrawals/compliance-stop.ts';
import { lockState, markTransferInProgress } from '../modules/withdrawals/signing.ts';
import { insertAttempt, lockHotWallet, maxRecordedNonce } from './repository.ts';
import { type ApprovedWithdrawal, maxOf, NATIVE_GAS, type SignerContext, TOKEN_GAS } from './signer-types.ts';

/** New work: plan the transaction (nonce, fees), sign, record with the withdrawal's move, then broadcast. */

export async function nextNonce(
  ctx: SignerContext,
  trx: Kysely<Database>,
  client: PublicClient,
  chainId: number,
): Promise<bigint> {
  const { account } = ctx;
  const pending = BigInt(await client.getTransactionCount({ address: account.address, blockTag: 'pending' }));
  // Withdrawals and gas top-ups (sweep_transactions) share the hot wallet's nonces.
  const withdrawals = await maxRecordedNonce(trx, chainId, account.address);
  const topUps = await maxSweepNonce(trx, chainId, account.address);
  const recorded = maxOf(withdrawals, topUps);
  return pending > recorded ? pending : recorded + 1n;
}

/** The owner froze, or compliance froze or holds, the account: nothing of theirs is signed. */
async function outflowStopped(trx: Kysely<Database>, withdrawalId: string, at: Date): Promise<boolean> {
  const row = await trx
    .selectFrom('withdrawals')
    .select('id')
    .where('id', '=', withdrawalId)
    .where((eb) =>
      eb.or([eb('user_id', 'in', accountFrozenUsers(trx, at)), eb('user_id', 'in', complianceStoppedUsers(trx))]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

/** Signs, records and broadcasts one approved withdrawal. */
export async function signOne(ctx: SignerContext, w: ApprovedWithdrawal): Promise<boolean> {
  const { db, now, account, log, clientFor, options, broadcast, nextNonce } = ctx;
  const network = w.network as EvmNetwork;
  const chain = options.chains()[network];
  const client = clientFor(network);
  const pair = findCoinNetwork(w.coin, w.network);
  if (!chain || !client || !pair) return false;
  const chainAmount = toChainUnits(pair.coin, pair.network, BigInt(w.arrival_minor));
  const isNative = pair.tokenContract === null;
  const token = isNative ? undefined : chain.tokens[pair.coin];
  if (!isNative && !token) return false;
  const fees = await client.estimateFeesPerGas();

  const recorded = await db.transaction().execute(async (trx) => {
    await options.fence?.(trx);
    // One signer at a time per hot wallet and chain: nonces are handed out in order.
    await lockHotWallet(trx, chain.chainId, account.address);
    if ((await lockState(trx, w.id)) !== 'review_approved') return undefined;
    // A freeze that committed after the pick: nothing of a frozen account is signed. A freeze still
    // running waits on this row lock (security/freeze.ts) and finds the withdrawal in progress.
    if (await outflowStopped(trx, w.id, now())) return undefined;
    const nonce = await nextNonce(trx, client, chain.chainId);
    const raw = await account.signTransaction({
      type: 'eip1559',
      chainId: chain.chainId,
      nonce: Number(nonce),
      to: isNative ? (w.address as Hex) : token,
      value: isNative ? chainAmount : 0n,
      data: isNative
        ? undefined
        : encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [w.address as Hex, chainAmount] }),
      gas: isNative ? NATIVE_GAS : TOKEN_GAS,
      maxFeePerGas: fees.maxFeePerGas,
      maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
    });
    const hash = keccak256(raw);
    const at = now();
    const row = await insertAttempt(trx, {
      withdrawal_id: w.id,
      network,
      chain_id: String(chain.chainId),
      from_address: account.address,
      nonce: nonce.toString(),
      tx_hash: hash,
      raw_tx: raw,
      max_fee_per_gas: fees.maxFeePerGas.toString(),
      max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
      state: 'signed',
      created_at: at,
      updated_at: at,
    });
    await markTransferInProgress(trx, w.id, hash, at);
    return { id: row.id, raw, hash, nonce };
  });
  if (!recorded) return false;
  log('withdrawal signed and recorded', {
    withdrawalId: w.id,
    txHash: recorded.hash,
    nonce: recorded.nonce.toString(),
  });
  await options.afterRecord?.(w.id, recorded.hash, 0);
  await broadcast(client, { id: recorded.id, raw_tx: recorded.raw });
  return true;
}
