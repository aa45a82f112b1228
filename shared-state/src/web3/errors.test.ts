import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error.ts';
import { toWeb3Error } from './errors.ts';

const wrapped = (inner: object) =>
  Object.assign(new Error('outer'), { name: 'ContractFunctionExecutionError', cause: inner });

describe('wallet errors as client codes', () => {
  it('maps the user refusing, a missing wallet, a wrong network and gas the wallet cannot pay', () => {
    expect(toWeb3Error(Object.assign(new Error('no'), { code: 4001 }), 'SIGN_FAILED').code).toBe('WALLET_REJECTED');
    expect(toWeb3Error(wrapped({ name: 'UserRejectedRequestError' }), 'SIGN_FAILED').code).toBe('WALLET_REJECTED');
    expect(toWeb3Error({ name: 'ProviderNotFoundError' }, 'SIGN_FAILED').code).toBe('WALLET_NOT_FOUND');
    expect(toWeb3Error({ name: 'ChainNotConfiguredError' }, 'SIGN_FAILED').code).toBe('WALLET_WRONG_NETWORK');
    expect(toWeb3Error(wrapped({ name: 'InsufficientFundsError' }), 'SIGN_FAILED').code).toBe('WALLET_GAS_SHORT');
  });

  it('decodes the check-in contract refusing a second check-in, and other reverts', () => {
    const already = wrapped({ name: 'ContractFunctionRevertedError', data: { errorName: 'AlreadyCheckedIn' } });
    expect(toWeb3Error(already, 'SIGN_FAILED').code).toBe('ALREADY_SIGNED');
    expect(toWeb3Error(wrapped({ name: 'ContractFunctionRevertedError' }), 'SIGN_FAILED').code).toBe('CONTRACT_FAILED');
  });

  it("keeps an ApiError and falls back to the caller's code for anything else", () => {
    const api = new ApiError({ code: 'WALLET_GAS_SHORT', message: 'x', status: 0 });
    expect(toWeb3Error(api, 'SIGN_FAILED')).toBe(api);
    expect(toWeb3Error(new Error('boom'), 'WALLET_TX_FAILED').code).toBe('WALLET_TX_FAILED');
  });
});
