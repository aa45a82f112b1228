import { canonicalAddress, isAddressNetwork, isValidAddress } from '@cw/shared-state/address';
import { AppError } from '../../errors/app-error.ts';
import type { NetworkCode } from '../catalogue/catalogue.ts';
import type { PlatformAddresses } from '../catalogue/platform-addresses.ts';
import type { CreateOrderRequest } from './schemas.ts';

const invalid = (field: string, message: string, rule: string) =>
  new AppError('EXCHANGE_ADDRESS_INVALID', `${field}: ${message}`, { details: [{ field, message, rule }] });

/** A valid address of `network` in canonical form, and not one of the platform's own. */
async function checkAddress(
  field: string,
  network: NetworkCode,
  address: string,
  platform: PlatformAddresses | undefined,
): Promise<string> {
  const trimmed = address.trim();
  if (!isAddressNetwork(network) || !isValidAddress(network, trimmed))
    throw invalid(field, `not a valid ${network} address`, 'format');
  const canonical = canonicalAddress(network, trimmed);
  // The payout (or refund) would go to our hot wallet, a token contract or an order address: lost or looped.
  if (await platform?.has(network, canonical)) throw invalid(field, 'an address of the platform', 'platform');
  return canonical;
}

/** The order's receive address (receive network) and optional refund address (send network), checked. */
export async function checkedAddresses(
  request: CreateOrderRequest,
  platform: PlatformAddresses | undefined,
): Promise<{ receiveAddress: string; refundAddress: string | null }> {
  const receiveAddress = await checkAddress('receiveAddress', request.receiveNetwork, request.receiveAddress, platform);
  const refundAddress =
    request.refundAddress === undefined || request.refundAddress.trim() === ''
      ? null
      : await checkAddress('refundAddress', request.sendNetwork, request.refundAddress, platform);
  return { receiveAddress, refundAddress };
}
