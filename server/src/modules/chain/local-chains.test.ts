import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { erc20Abi, parseEther } from 'viem';
import { describe, expect, it } from 'vitest';
import { chainsFilePath, loadChainConfig } from './chain-config.ts';
import { devClient, startLocalChains } from './local-chains.ts';

const HOT = '0x1111111111111111111111111111111111111111';

describe('local anvil chains', () => {
  it('deploy the catalogue tokens with their chain decimals, fund the hot wallet, and keep the chain across restarts', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-local-chains-'));
    const first = await startLocalChains({
      dataDir,
      networks: ['ethereum', 'bsc'],
      hotWallets: { ethereum: HOT, bsc: HOT },
    });
    let height: bigint;
    let tokens: ReturnType<typeof loadChainConfig>;
    try {
      tokens = loadChainConfig(dataDir, {});
      expect(Object.keys(tokens.ethereum?.tokens ?? {}).sort()).toEqual(['TUSD', 'USDC', 'USDT']);
      expect(tokens.ethereum).toMatchObject({ chainId: 31337, confirmations: 6 });
      expect(tokens.bsc).toMatchObject({ chainId: 5631337, confirmations: 64 });
      const eth = tokens.ethereum;
      const bsc = tokens.bsc;
      if (!eth?.tokens.USDT || !bsc?.tokens.USDT) throw new Error('tokens missing');
      const ethClient = devClient(eth.rpcUrl, eth.chainId);
      const bscClient = devClient(bsc.rpcUrl, bsc.chainId);
      // USDT: 6 decimals on ethereum, 18 on bsc (catalogue chainDecimals).
      expect(await ethClient.readContract({ address: eth.tokens.USDT, abi: erc20Abi, functionName: 'decimals' })).toBe(
        6,
      );
      expect(await bscClient.readContract({ address: bsc.tokens.USDT, abi: erc20Abi, functionName: 'decimals' })).toBe(
        18,
      );
      expect(
        await ethClient.readContract({
          address: eth.tokens.USDT,
          abi: erc20Abi,
          functionName: 'balanceOf',
          args: [HOT],
        }),
      ).toBe(1_000_000n * 10n ** 6n);
      expect(await ethClient.getBalance({ address: HOT })).toBe(parseEther('10000'));
      await ethClient.mine({ blocks: 5 });
      height = await ethClient.getBlockNumber();
    } finally {
      await first.stop();
    }

    const second = await startLocalChains({
      dataDir,
      networks: ['ethereum', 'bsc'],
      hotWallets: { ethereum: HOT, bsc: HOT },
    });
    try {
      const again = loadChainConfig(dataDir, {});
      expect(again.ethereum?.tokens).toEqual(tokens.ethereum?.tokens);
      const ethClient = devClient(again.ethereum?.rpcUrl ?? '', 31337);
      expect(await ethClient.getBlockNumber()).toBeGreaterThanOrEqual(height);
      expect(await ethClient.getBalance({ address: HOT })).toBe(parseEther('10000'));
      const file = JSON.parse(readFileSync(chainsFilePath(dataDir), 'utf8'));
      expect(file.ethereum.rpcUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await second.stop();
    }
  }, 60_000);

  it('a second live server on the same DATA_DIR shares the chain; an anvil orphaned by a dead server is replaced', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'cw-local-chains-owner-'));
    const pidFile = path.join(dataDir, 'chains', 'ethereum.pid');
    const setOwner = (serverPid: number) => {
      const pids = JSON.parse(readFileSync(pidFile, 'utf8'));
      writeFileSync(pidFile, JSON.stringify({ ...pids, serverPid }));
      return pids.anvilPid as number;
    };
    const first = await startLocalChains({ dataDir, networks: ['ethereum'], hotWallets: {} });
    try {
      const rpcUrl = first.file.ethereum?.rpcUrl;
      // Owned by another live process (our parent stands in for a second server).
      setOwner(process.ppid);
      const shared = await startLocalChains({ dataDir, networks: ['ethereum'], hotWallets: {} });
      expect(shared.file.ethereum?.rpcUrl).toBe(rpcUrl);
      await shared.stop(); // must not stop the owner's chain
      expect(await devClient(rpcUrl ?? '', 31337).getChainId()).toBe(31337);

      // Owned by a process that is gone: its anvil is an orphan, stopped and replaced.
      const deadPid = spawnSync(process.execPath, ['-e', 'process.pid']).pid ?? 0;
      const orphan = setOwner(deadPid);
      const replaced = await startLocalChains({ dataDir, networks: ['ethereum'], hotWallets: {} });
      try {
        expect(replaced.file.ethereum?.rpcUrl).not.toBe(rpcUrl);
        expect(() => process.kill(orphan, 0)).toThrow();
      } finally {
        await replaced.stop();
      }
    } finally {
      await first.stop();
    }
  }, 60_000);

  it('a configured RPC URL replaces the local chain for that network', () => {
    const config = loadChainConfig('/nonexistent', {
      ETHEREUM_RPC_URL: 'https://rpc.example.invalid',
      ETHEREUM_TOKEN_USDT: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
    });
    expect(config.ethereum).toMatchObject({ chainId: 1, rpcUrl: 'https://rpc.example.invalid', confirmations: 6 });
    expect(config.ethereum?.tokens.USDT).toBe('0xdAC17F958D2ee523a2206206994597C13D831ec7');
    expect(config.bsc).toBeUndefined();
  });
});
