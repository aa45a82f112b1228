export { NETWORK_NAMES, type NetworkLabelInput, networkLabel, networkName } from './network-label.ts';
