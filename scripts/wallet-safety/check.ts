/**
 * The wallet-safety check: no built bundle of the apps may contain the function selectors of token
 * allowances and transfers-on-behalf (approve, increaseAllowance, permit, setApprovalForAll,
 * transferFrom) or the wallet methods that sign (eth_sign, personal_sign, eth_signTypedData*) or
 * batch calls (wallet_sendCalls), nor their ABI names, Permit2/DAI permits, safeTransferFrom,
 * eth_signTransaction, wallet_grantPermissions or a direct window.ethereum.request. Names built at run
 * time cannot be found by reading: the kit's runtime guard (web3/guard.ts) refuses those. Drainers need exactly these; this app never does, so a bundle that
 * has one fails the build. Run on built output: `npm run check:wallet-safety` (after `npm run build`),
 * and by the e2e suite on the bundles it serves (e2e/rewards/wallet-safety.spec.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const FORBIDDEN: readonly { name: string; pattern: RegExp }[] = [
  { name: 'approve (095ea7b3)', pattern: /095ea7b3/i },
  { name: 'increaseAllowance (39509351)', pattern: /39509351/i },
  { name: 'permit (d505accf)', pattern: /d505accf/i },
  { name: 'setApprovalForAll (a22cb465)', pattern: /a22cb465/i },
  { name: 'transferFrom (23b872dd)', pattern: /23b872dd/i },
  { name: 'eth_sign', pattern: /\beth_sign(?![A-Za-z0-9_])/ },
  { name: 'personal_sign', pattern: /\bpersonal_sign\b/ },
  { name: 'eth_signTypedData*', pattern: /\beth_signTypedData\w*/ },
  { name: 'wallet_sendCalls', pattern: /\bwallet_sendCalls\b/ },
  // Issue 40 item 6: what the selectors alone missed.
  { name: 'eth_signTransaction', pattern: /\beth_signTransaction\b/ },
  { name: 'wallet_grantPermissions', pattern: /\bwallet_grantPermissions\b/ },
  { name: 'Permit2 permit single (2b67b570)', pattern: /2b67b570/i },
  { name: 'Permit2 permit batch (2a2d80d1)', pattern: /2a2d80d1/i },
  { name: 'DAI permit (8fcbaf0c)', pattern: /8fcbaf0c/i },
  { name: 'safeTransferFrom (42842e0e, b88d4fde, f242432a)', pattern: /42842e0e|b88d4fde|f242432a/i },
  {
    // An ABI object or a human-readable signature (viem's erc20Abi has name:"approve"; its selector never appears).
    name: 'ABI names of allowance and on-behalf functions',
    pattern:
      /["']?name["']?\s*:\s*["'](?:approve|increaseAllowance|permit|setApprovalForAll|transferFrom|safeTransferFrom)["']|\bfunction\s+(?:approve|increaseAllowance|permit|setApprovalForAll|transferFrom|safeTransferFrom)\s*\(/,
  },
  // The wallet is reached only through the kit's guarded wagmi instance, never window.ethereum directly.
  { name: 'direct window.ethereum.request', pattern: /\bethereum\s*\??\.\s*request\s*\(/ },
];

export interface Finding {
  file: string;
  what: string;
}

/** Script files under `dir` (recursively; source maps and other assets are not shipped code). */
function scripts(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...scripts(full));
    else if (/\.(m?js|cjs)$/.test(entry)) out.push(full);
  }
  return out;
}

export function scanBundles(dirs: readonly string[]): { files: number; findings: Finding[] } {
  const findings: Finding[] = [];
  let files = 0;
  for (const dir of dirs) {
    for (const file of scripts(dir)) {
      files++;
      const text = readFileSync(file, 'utf8');
      for (const f of FORBIDDEN) if (f.pattern.test(text)) findings.push({ file, what: f.name });
    }
  }
  return { files, findings };
}

/** The apps' build folders: the host, every remote and the operator console. */
export function appDistDirs(root: string): string[] {
  const dirs = [path.join(root, 'host/dist'), path.join(root, 'ops-console/dist')];
  for (const name of readdirSync(path.join(root, 'remotes'))) dirs.push(path.join(root, 'remotes', name, 'dist'));
  return dirs.filter((d) => {
    try {
      return statSync(d).isDirectory();
    } catch {
      return false;
    }
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = path.resolve(import.meta.dirname, '../..');
  const dirs = process.argv.length > 2 ? process.argv.slice(2) : appDistDirs(root);
  if (dirs.length === 0) {
    console.error('wallet-safety: no built bundles found (run `npm run build` first)');
    process.exit(1);
  }
  const { files, findings } = scanBundles(dirs);
  for (const f of findings) console.error(`wallet-safety: ${f.what} in ${path.relative(root, f.file)}`);
  console.log(`wallet-safety: ${files} bundle files checked, ${findings.length} forbidden item(s)`);
  process.exit(findings.length === 0 ? 0 : 1);
}
