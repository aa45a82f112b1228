import { ApiError } from '@cw/shared-state/api';
import { type KnownErrorCode, useErrorMessage } from '@cw/shared-state/errors';
import { useCallback } from 'react';

/**
 * The translated message of an error code checked in the browser, the same
 * text the server's refusal would show ("address invalid or mismatched with
 * the network", "exceeds the maximum available", ...).
 */
export function useCodeMessage(): (code: KnownErrorCode) => string {
  const message = useErrorMessage();
  return useCallback((code) => message(new ApiError({ code, message: code, status: 400 })), [message]);
}
