/**
 * Compiles TestToken.sol with the `solc` npm package (pinned in server devDependencies) into
 * test-token.json (ABI + creation bytecode). Run after editing the source:
 *   npx tsx server/contracts/compile.ts
 * A test (test-token.test.ts) recompiles and checks the committed artifact is current.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const sourcePath = path.join(here, 'TestToken.sol');
export const artifactPath = path.join(here, 'test-token.json');

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

export interface TokenArtifact {
  contractName: 'TestToken';
  compiler: string;
  sourceSha256: string;
  abi: unknown[];
  bytecode: `0x${string}`;
}

export function compileTestToken(): TokenArtifact {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string; version(): string };
  const source = readFileSync(sourcePath, 'utf8');
  const input = {
    language: 'Solidity',
    sources: { 'TestToken.sol': { content: source } },
    settings: {
      // Shanghai runs on every anvil hardfork we use; fixed so the artifact is reproducible.
      evmVersion: 'shanghai',
      optimizer: { enabled: true, runs: 200 },
      outputSelection: { '*': { TestToken: ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
  const contract = output.contracts['TestToken.sol']?.TestToken;
  if (!contract) throw new Error('solc produced no TestToken');
  return {
    contractName: 'TestToken',
    compiler: solc.version(),
    sourceSha256: createHash('sha256').update(source).digest('hex'),
    abi: contract.abi,
    bytecode: `0x${contract.evm.bytecode.object}`,
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(artifactPath, `${JSON.stringify(compileTestToken(), null, 2)}\n`);
  console.log(`wrote ${artifactPath}`);
}
