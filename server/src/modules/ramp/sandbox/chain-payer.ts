import { type Address, erc20Abi, type Hex } from 'viem';
import artifact from '../../../../contracts/test-token.json' with { type: 'json' };
import type { CoinCode } from '../../catalogue/catalogue.ts';
import { coinNetworks } from '../../catalogue/catalogue.ts';
import type { EvmNetwork } from '../../catalogue/chains-file.ts';
import type { EvmChainRuntime } from '../../chain/chain-config.ts';
import { DEV_ACCOUNT, devClient } from '../../chain/local-chains.ts';

/**
 * The sandbox provider's wallet on the local chains: anvil's unlocked development account (it
 * deployed the test tokens and may mint them). A buy is paid by a real transfer from it to the
 * user's deposit address, so the wallet's own deposit watcher credits it like any deposit. Sells
 * are seen by the balance of the sell's deposit address.
 */
export interface ChainPayer {
  /** Sends `amountChain` (chain units) of the coin; resolves with the transaction hash. */
  pay(network: EvmNetwork, coin: CoinCode, to: Address, amountChain: bigint): Promise<Hex>;
  balanceOf(network: EvmNetwork, coin: CoinCode, address: Address): Promise<bigint>;
  chainDecimals(network: EvmNetwork, coin: CoinCode): number;
}

export function createChainPayer(chains: () => Partial<Record<EvmNetwork, EvmChainRuntime | undefined>>): ChainPayer {
  const chainOf = (network: EvmNetwork) => {
    const chain = chains()[network];
    if (!chain) throw new Error(`sandbox provider: no ${network} chain`);
    return chain;
  };
  const tokenOf = (chain: EvmChainRuntime, coin: CoinCode) => chain.tokens[coin];

  return {
    chainDecimals(network, coin) {
      const pair = coinNetworks.find((p) => p.network === network && p.coin === coin);
      if (!pair) throw new Error(`sandbox provider: no ${coin} on ${network}`);
      return pair.chainDecimals;
    },

    async pay(network, coin, to, amountChain) {
      const chain = chainOf(network);
      const client = devClient(chain.rpcUrl, chain.chainId);
      const token = tokenOf(chain, coin);
      if (!token) return client.wallet.sendTransaction({ account: DEV_ACCOUNT, to, value: amountChain, chain: null });
      // The provider's token stock: minted as needed, then a plain transfer (a Transfer log from us).
      const held = await client.readContract({
        address: token,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [DEV_ACCOUNT],
      });
      if (held < amountChain) {
        await client.wallet.writeContract({
          address: token,
          abi: artifact.abi,
          functionName: 'mint',
          args: [DEV_ACCOUNT, amountChain * 1000n],
          account: DEV_ACCOUNT,
          chain: null,
        });
      }
      return client.wallet.writeContract({
        address: token,
        abi: erc20Abi,
        functionName: 'transfer',
        args: [to, amountChain],
        account: DEV_ACCOUNT,
        chain: null,
      });
    },

    async balanceOf(network, coin, address) {
      const chain = chainOf(network);
      const client = devClient(chain.rpcUrl, chain.chainId);
      const token = tokenOf(chain, coin);
      if (!token) return client.getBalance({ address });
      return client.readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
    },
  };
}
