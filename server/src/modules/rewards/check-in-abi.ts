import { parseAbiItem } from 'viem';

/** The `CheckIn` contract's event (contracts/CheckIn.sol); check-in-contract.test.ts holds it to the artifact. */
export const checkedInEvent = parseAbiItem(
  'event CheckedIn(address indexed wallet, bytes32 indexed memberTag, uint64 day)',
);
