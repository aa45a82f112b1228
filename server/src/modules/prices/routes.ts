import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../errors/schema.ts';
import { coinCodes, coinDecimals } from '../catalogue/catalogue.ts';
import { PriceUnavailableError } from './errors.ts';
import { toDecimal } from './rational.ts';
import { Prices, PricesQuery } from './schemas.ts';
import type { PriceService } from './service.ts';

export interface PriceRoutesOptions {
  prices: PriceService;
}

/** Public market data: no session needed (the same for everyone). */
export const priceRoutes: FastifyPluginAsyncTypebox<PriceRoutesOptions> = async (app, { prices }) => {
  app.get(
    '/prices',
    {
      schema: {
        tags: ['prices'],
        summary: 'Fresh price of every coin in a fiat currency; source tells sandbox from live',
        querystring: PricesQuery,
        response: { 200: Prices, ...errorResponses(400, 503) },
      },
    },
    async (request, reply): Promise<Prices> => {
      const { fiat } = request.query;
      const { asOf, prices: byCoin } = prices.prices(fiat);
      if (!asOf || !prices.kind) throw new PriceUnavailableError(`No fresh prices in ${fiat}`);
      reply.header('cache-control', 'no-store');
      return {
        source: prices.kind,
        fiat,
        asOf: asOf.toISOString(),
        prices: coinCodes.flatMap((asset) => {
          const price = byCoin[asset];
          return price ? [{ asset, decimals: coinDecimals(asset), price: toDecimal(price, 8) }] : [];
        }),
      };
    },
  );
};
