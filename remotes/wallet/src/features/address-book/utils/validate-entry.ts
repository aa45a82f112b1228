import { isValidAddress } from '@cw/shared-state/address';

export interface EntryInput {
  name: string;
  walletType: string;
  network: string;
  address: string;
  remark: string;
}

export const NAME_MAX = 40;
export const REMARK_MAX = 100;

export type EntryProblems = Partial<Record<keyof EntryInput, 'required' | 'tooLong' | 'ADDRESS_INVALID'>>;

/** What the add-address form refuses before the server does (the server checks again). */
export function validateEntry(input: EntryInput): EntryProblems {
  const problems: EntryProblems = {};
  const name = input.name.trim();
  if (name === '') problems.name = 'required';
  else if (name.length > NAME_MAX) problems.name = 'tooLong';
  if (input.walletType === '') problems.walletType = 'required';
  if (input.network === '') problems.network = 'required';
  const address = input.address.trim();
  if (address === '') problems.address = 'required';
  else if (input.network !== '' && !isValidAddress(input.network, address)) problems.address = 'ADDRESS_INVALID';
  if (input.remark.trim().length > REMARK_MAX) problems.remark = 'tooLong';
  return problems;
}
