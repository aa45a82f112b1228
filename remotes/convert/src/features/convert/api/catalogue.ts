import { api, unwrap } from '@cw/shared-state/api';

/** The server catalogue (GET /api/catalogue): coins with their ledger decimals, networks, pairs. */
export const fetchCatalogue = () => unwrap(api.GET('/api/catalogue'));

export type Catalogue = Awaited<ReturnType<typeof fetchCatalogue>>;
export type CatalogueCoin = Catalogue['coins'][number];
