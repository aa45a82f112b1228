import { ApiError } from '../api/api-error.ts';

/**
 * Wallet and chain failures as the client error codes the UI translates (errors/codes.ts): the
 * user's refusal, a missing wallet, a revert (AlreadyCheckedIn decoded), gas the wallet cannot pay.
 * Works on viem/wagmi errors by their names and codes, so this file needs neither library.
 */
export type Web3ErrorCode =
  | 'WALLET_NOT_CONNECTED'
  | 'WALLET_NOT_FOUND'
  | 'WALLET_REJECTED'
  | 'WALLET_WRONG_NETWORK'
  | 'WALLET_BALANCE_ZERO'
  | 'WALLET_BALANCE_LOW'
  | 'WALLET_GAS_SHORT'
  | 'CONTRACT_FAILED'
  | 'ALREADY_SIGNED'
  | 'SIGN_FAILED'
  | 'WALLET_TX_FAILED';

export function web3Error(code: Web3ErrorCode, message: string = code): ApiError {
  return new ApiError({ code, message, status: 0 });
}

interface ErrorLike {
  name?: string;
  code?: number;
  message?: string;
  cause?: unknown;
  data?: { errorName?: string };
}

/** The chain of causes of a (viem) error, outermost first, at most 10 deep. */
function causes(err: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let current: unknown = err;
  while (current && typeof current === 'object' && out.length < 10) {
    out.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return out;
}

/** Maps a thrown wallet/chain error onto a client code; `fallback` when it is none of the known ones. */
export function toWeb3Error(err: unknown, fallback: Web3ErrorCode): ApiError {
  if (err instanceof ApiError) return err;
  const chain = causes(err);
  const has = (test: (e: ErrorLike) => boolean) => chain.some(test);
  if (has((e) => e.code === 4001 || e.name === 'UserRejectedRequestError')) return web3Error('WALLET_REJECTED');
  if (has((e) => e.name === 'ProviderNotFoundError')) return web3Error('WALLET_NOT_FOUND');
  if (has((e) => e.name === 'ConnectorNotConnectedError' || e.name === 'ConnectorAccountNotFoundError')) {
    return web3Error('WALLET_NOT_CONNECTED');
  }
  if (has((e) => e.name === 'ChainNotConfiguredError' || e.name === 'SwitchChainError' || e.code === 4902)) {
    return web3Error('WALLET_WRONG_NETWORK');
  }
  if (has((e) => e.data?.errorName === 'AlreadyCheckedIn')) return web3Error('ALREADY_SIGNED');
  if (has((e) => e.name === 'InsufficientFundsError')) return web3Error('WALLET_GAS_SHORT');
  if (has((e) => e.name === 'ContractFunctionRevertedError' || e.name === 'ExecutionRevertedError')) {
    return web3Error('CONTRACT_FAILED');
  }
  return web3Error(fallback, chain[0]?.message ?? fallback);
}
