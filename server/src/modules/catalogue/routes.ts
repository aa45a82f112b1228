import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import type { ChainsProvider } from './chains-file.ts';
import { runtimeCatalogue, type WatchedNetworks } from './runtime.ts';
import { Catalogue } from './schemas.ts';

export interface CatalogueRoutesOptions {
  chains: ChainsProvider;
  signerRunning: boolean;
  /** Default: the running EVM chains only. */
  watchedNetworks?: WatchedNetworks;
}

/** GET /api/catalogue: public (the deposit and withdraw screens read it before anything else). */
export const catalogueRoutes: FastifyPluginAsyncTypebox<CatalogueRoutesOptions> = async (
  app,
  { chains, signerRunning, watchedNetworks },
) => {
  app.get(
    '/catalogue',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Coins, networks and every (coin, network) pair with limits, fees, confirmations and enabled flags',
        response: { 200: Catalogue, ...errorResponses() },
      },
    },
    async (_request, reply): Promise<Catalogue> => {
      reply.header('cache-control', 'no-cache');
      // One read of the chains file per request, for both the contracts and the watched networks.
      const current = chains();
      const catalogue = runtimeCatalogue(current, signerRunning, watchedNetworks?.(current));
      return {
        coins: catalogue.coins.map((c) => ({
          code: c.code,
          decimals: c.decimals,
          displayDecimals: c.displayDecimals,
          displayDecimalsAtOne: c.displayDecimalsAtOne,
        })),
        networks: catalogue.networks.map((n) => ({ ...n })),
        pairs: catalogue.pairs.map((p) => ({
          coin: p.coin,
          network: p.network,
          chainDecimals: p.chainDecimals,
          tokenContract: p.tokenContract,
          minDepositMinor: p.minDepositMinor.toString(),
          confirmations: p.confirmations,
          expectedArrivalMinutes: p.expectedArrivalMinutes,
          withdrawMinMinor: p.withdrawMinMinor.toString(),
          withdrawMaxMinor: p.withdrawMaxMinor.toString(),
          withdrawFeeMinor: p.withdrawFeeMinor.toString(),
          depositEnabled: p.depositEnabled,
          withdrawEnabled: p.withdrawEnabled,
        })),
      };
    },
  );
};
