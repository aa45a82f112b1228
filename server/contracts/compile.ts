/**
 * Compiles the repository's contracts with the `solc` npm package (pinned in server devDependencies)
 * into their artifacts (ABI + creation bytecode). Run after editing a source:
 *   npx tsx server/contracts/compile.ts
 * Tests (test-token.test.ts, check-in-contract.test.ts) recompile and check the committed artifacts are current.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

/** Each contract: its source and its committed artifact. */
export const contracts = {
  TestToken: { source: path.join(here, 'TestToken.sol'), artifact: path.join(here, 'test-token.json') },
  CheckIn: { source: path.join(here, 'CheckIn.sol'), artifact: path.join(here, 'check-in.json') },
} as const;
export type ContractName = keyof typeof contracts;

/** Kept for the test token's callers. */
export const sourcePath = contracts.TestToken.source;
export const artifactPath = contracts.TestToken.artifact;

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

export interface ContractArtifact<N extends ContractName = ContractName> {
  contractName: N;
  compiler: string;
  sourceSha256: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}
export type TokenArtifact = ContractArtifact<'TestToken'>;

export function compileContract<N extends ContractName>(name: N): ContractArtifact<N> {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string; version(): string };
  const file = path.basename(contracts[name].source);
  const source = readFileSync(contracts[name].source, 'utf8');
  const input = {
    language: 'Solidity',
    sources: { [file]: { content: source } },
    settings: {
      // Shanghai runs on every anvil hardfork we use; fixed so the artifact is reproducible.
      evmVersion: 'shanghai',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { [name]: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts[file]?.[name];
  if (!contract) throw new Error(`solc produced no ${name}`);
  return {
    contractName: name,
    compiler: solc.version(),
    sourceSha256: createHash('sha256').update(source).digest('hex'),
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
}

export const compileTestToken = (): TokenArtifact => compileContract('TestToken');

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const name of Object.keys(contracts) as ContractName[]) {
    writeFileSync(contracts[name].artifact, `${JSON.stringify(compileContract(name), null, 2)}\n`);
    console.log(`wrote ${contracts[name].artifact}`);
  }
}
