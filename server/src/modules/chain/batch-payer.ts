import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Abi, Address, Hex } from 'viem';
import { DEV_ACCOUNT, type devClient } from './local-chains.ts';

/** Tests only: compiles fixtures/BatchPayer.sol (solc, as contracts/compile.ts) and deploys it on an anvil. */
export interface BatchPayer {
  address: Address;
  abi: Abi;
}

function compile(): { abi: Abi; bytecode: Hex } {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const content = readFileSync(new URL('./fixtures/BatchPayer.sol', import.meta.url), 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'BatchPayer.sol': { content } },
    settings: { evmVersion: 'shanghai', outputSelection: { '*': { BatchPayer: ['abi', 'evm.bytecode.object'] } } },
  };
  const out = JSON.parse(solc.compile(JSON.stringify(input))) as {
    errors?: { severity: string; formattedMessage: string }[];
    contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
  };
  const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const c = out.contracts['BatchPayer.sol']?.BatchPayer;
  if (!c) throw new Error('solc produced no BatchPayer');
  return { abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` };
}

export async function deployBatchPayer(client: ReturnType<typeof devClient>): Promise<BatchPayer> {
  const { abi, bytecode } = compile();
  const hash = await client.wallet.deployContract({ abi, bytecode, account: DEV_ACCOUNT, chain: null });
  const receipt = await client.waitForTransactionReceipt({ hash });
  if (!receipt.contractAddress) throw new Error('BatchPayer not deployed');
  return { address: receipt.contractAddress, abi };
}
