/**
 * Per-network address validation, shared by the browser (forms, QR scanner) and the server
 * (withdrawals, sends, address book). Pure functions, no state.
 */
export {
  type AddressNetwork,
  addressNetworks,
  canonicalAddress,
  isAddressNetwork,
  isValidAddress,
} from './validate.ts';
