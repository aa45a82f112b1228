import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORBIDDEN, scanBundles } from './check.ts';

function bundle(files: Record<string, string>): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cw-wallet-safety-'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  return dir;
}

describe('wallet-safety bundle check', () => {
  it('passes a bundle with only the allowed wallet calls', () => {
    const dir = bundle({
      'main.js': 'request({method:"eth_requestAccounts"});request({method:"eth_sendTransaction"});x="0xa9059cbb"',
      'chunk/1.js':
        'request({method:"wallet_switchEthereumChain"});y="eth_signTransactionX".length;' +
        'abi=[{name:"transfer"},{name:"balanceOf"},{name:"checkIn"}];f="function transfer(address to, uint256 amount)"',
      'main.js.map': '{"mappings":"095ea7b3 personal_sign"}',
    });
    expect(scanBundles([dir])).toEqual({ files: 2, findings: [] });
  });

  it.each([
    ['approve', 'data:"0x095ea7b3"+spender'],
    ['increaseAllowance', 'const s="0x39509351"'],
    ['permit', 'sel="D505ACCF"'],
    ['setApprovalForAll', '"a22cb465"'],
    ['transferFrom', '0x23b872dd000'],
    ['eth_sign', 'request({method:"eth_sign",params})'],
    ['personal_sign', 'method:"personal_sign"'],
    ['eth_signTypedData', 'method:"eth_signTypedData_v4"'],
    ['wallet_sendCalls', 'method:"wallet_sendCalls"'],
    ['eth_signTransaction', 'request({method:"eth_signTransaction",params:[tx]})'],
    ['wallet_grantPermissions', 'method:"wallet_grantPermissions"'],
    ['Permit2 permit single', 'sel="0x2b67b570"'],
    ['Permit2 permit batch', 'sel="0x2A2D80D1"'],
    ['DAI permit', '"0x8fcbaf0c"+x'],
    ['safeTransferFrom', 'd="0x42842e0e"'],
    ['safeTransferFrom', 'd="0xb88d4fde"'],
    ['safeTransferFrom', 'd="0xf242432a"'],
    // viem's erc20Abi, minified: the name is there, the selector 095ea7b3 is not.
    ['ABI names', 'const e=[{type:"function",name:"approve",stateMutability:"nonpayable"}]'],
    ['ABI names', '{"type":"function","name":"transferFrom"}'],
    ['ABI names', 'parseAbi(["function setApprovalForAll(address o, bool a)"])'],
    ['ABI names', "{name:'permit',inputs:[]}"],
    ['direct window.ethereum.request', 'window.ethereum.request({method:m})'],
    ['direct window.ethereum.request', 'window.ethereum?.request ({method:m})'],
  ])('fails a fixture bundle that contains %s', (name, code) => {
    const dir = bundle({ 'ok.js': 'fine()', 'nested/bad.mjs': code });
    const { findings } = scanBundles([dir]);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.what).toContain(name);
    expect(findings[0]?.file).toMatch(/bad\.mjs$/);
  });

  it('lists every item the issue names', () => {
    expect(FORBIDDEN.map((f) => f.name.split(' ')[0])).toEqual([
      'approve',
      'increaseAllowance',
      'permit',
      'setApprovalForAll',
      'transferFrom',
      'eth_sign',
      'personal_sign',
      'eth_signTypedData*',
      'wallet_sendCalls',
      'eth_signTransaction',
      'wallet_grantPermissions',
      'Permit2',
      'Permit2',
      'DAI',
      'safeTransferFrom',
      'ABI',
      'direct',
    ]);
  });
});
