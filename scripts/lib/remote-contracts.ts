/**
 * Host-remote contract check (issue 35): each remote's exposed modules, as its rspack.config.ts
 * declares them, are type-checked against what the host does with them (the contract types in
 * @cw/shared-state/contracts), in one TypeScript program. A remote that stops satisfying the contract
 * (a screen that now needs a prop, a missing namespace) fails with a message naming the remote, the
 * exposed module and the contract, not a runtime error in the browser after deploy.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import ts from 'typescript';
import { REMOTE_NAMES, ROOT } from './paths.ts';

/** What the host loads from every remote, and the type the default export must satisfy. */
export const HOST_USES: Record<string, string> = { './routes': 'RemoteRoutesModule' };

const CHECK_DIR = path.join(ROOT, 'node_modules', '.cache', 'remote-contracts');

export interface ContractTarget {
  remote: string;
  expose: string;
  /** Absolute path of the exposed module. */
  file: string;
}

/** The exposes a remote's rspack.config.ts declares (`exposes: { './routes': './src/routes.ts' }`). */
export async function exposesOf(remote: string): Promise<Record<string, string>> {
  const dir = path.join(ROOT, 'remotes', remote);
  const config = await readFile(path.join(dir, 'rspack.config.ts'), 'utf8');
  const block = /exposes:\s*\{([^}]*)\}/.exec(config)?.[1] ?? '';
  const out: Record<string, string> = {};
  for (const m of block.matchAll(/'([^']+)':\s*'([^']+)'/g)) out[m[1] as string] = path.join(dir, m[2] as string);
  return out;
}

export async function remoteTargets(): Promise<ContractTarget[]> {
  const targets: ContractTarget[] = [];
  for (const remote of REMOTE_NAMES) {
    for (const [expose, file] of Object.entries(await exposesOf(remote))) targets.push({ remote, expose, file });
  }
  return targets;
}

/** Type-checks every target's default export against HOST_USES; returns one message per breach. */
export async function checkContracts(targets: ContractTarget[]): Promise<string[]> {
  await mkdir(CHECK_DIR, { recursive: true });
  const problems: string[] = [];
  const checks = new Map<string, ContractTarget>();
  for (const [i, target] of targets.entries()) {
    const contract = HOST_USES[target.expose];
    if (!contract) {
      problems.push(
        `${target.remote} exposes ${target.expose}, which the host does not use (contract: ${Object.keys(HOST_USES).join(', ')})`,
      );
      continue;
    }
    const file = path.join(CHECK_DIR, `check-${i}-${target.remote}.ts`);
    await writeFile(
      file,
      `import type { ${contract} } from '@cw/shared-state/contracts';\n` +
        `import exposed from ${JSON.stringify(target.file)};\n` +
        `export const contract: ${contract} = exposed;\n`,
    );
    checks.set(path.resolve(file), target);
  }
  const config = ts.getParsedCommandLineOfConfigFile(
    path.join(ROOT, 'host', 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => undefined,
    },
  );
  if (!config) throw new Error('host/tsconfig.json unreadable');
  const program = ts.createProgram([...checks.keys(), path.join(ROOT, 'types', 'globals.d.ts')], {
    ...config.options,
    noEmit: true,
  });
  // Only the check files' own diagnostics are read (the typecheck stage checks the remotes whole): asking the
  // program for every file's (getPreEmitDiagnostics) type-checked all five remotes, ~70 s of a loaded CI run.
  for (const [file, target] of checks) {
    const source = program.getSourceFile(file);
    if (!source) throw new Error(`contract check ${file} is not in the program`);
    for (const diagnostic of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)])
      report(diagnostic, target);
  }
  return problems;

  function report(diagnostic: ts.Diagnostic, target: ContractTarget): void {
    const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n  ');
    problems.push(
      `${target.remote} ${target.expose} (${path.relative(ROOT, target.file)}) no longer satisfies the host's ${HOST_USES[target.expose]}:\n  ${text}`,
    );
  }
}
