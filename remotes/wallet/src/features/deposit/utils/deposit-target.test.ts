import { type Catalogue, catalogueView } from '@cw/shared-state/catalogue';
import { describe, expect, it } from 'vitest';
import { depositTarget } from './deposit-target.ts';

const ADDRESS = '0x1111111111111111111111111111111111111111';
const TOKEN = '0x2222222222222222222222222222222222222222';

function pair(coin: string, network: string, tokenContract: string | null) {
  return {
    coin,
    network,
    chainDecimals: 18,
    tokenContract,
    minDepositMinor: '1',
    confirmations: 1,
    expectedArrivalMinutes: 1,
    withdrawMinMinor: '1',
    withdrawMaxMinor: '10',
    withdrawFeeMinor: '0',
    depositEnabled: true,
    withdrawEnabled: true,
  };
}

// An older server (or a misconfigured one): TUSD on BSC without its contract, still depositEnabled.
const catalogue = {
  coins: [],
  networks: [
    { code: 'bsc', nativeCoin: 'BNB', tokenStandard: 'BEP-20', chainId: 56, depositsLive: true, checkInContract: null },
    {
      code: 'tron',
      nativeCoin: 'TRX',
      tokenStandard: 'TRC-20',
      chainId: null,
      depositsLive: true,
      checkInContract: null,
    },
  ],
  pairs: [pair('BNB', 'bsc', null), pair('TUSD', 'bsc', null), pair('USDT', 'bsc', TOKEN), pair('USDT', 'tron', null)],
} as unknown as Catalogue;
const view = catalogueView(catalogue);

describe('depositTarget (issue 40 item 2)', () => {
  it('pays native value only for the network native coin', () => {
    expect(depositTarget(view, 'BNB', 'bsc', ADDRESS)).toMatchObject({ coin: 'BNB', token: null, chainId: 56 });
  });

  it('a token with its contract pays a transfer on it', () => {
    expect(depositTarget(view, 'USDT', 'bsc', ADDRESS)).toMatchObject({ coin: 'USDT', token: TOKEN });
  });

  it('a token without a contract is never treated as the native coin', () => {
    expect(depositTarget(view, 'TUSD', 'bsc', ADDRESS)).toBe('no-contract');
  });

  it('nothing on a network without a chain, or without an EVM address', () => {
    expect(depositTarget(view, 'USDT', 'tron', ADDRESS)).toBeNull();
    expect(depositTarget(view, 'BNB', 'bsc', 'TXyz')).toBeNull();
  });
});
