export {
  asCoin,
  asNetwork,
  type Catalogue,
  type CatalogueCoin,
  type CataloguePair,
  type CatalogueView,
  type CoinCode,
  catalogueQuery,
  catalogueView,
  fetchCatalogue,
  type NetworkCode,
  useCatalogue,
} from './catalogue.ts';
export { NETWORK_NAMES, type NetworkLabelInput, networkLabel, networkName } from './network-label.ts';
