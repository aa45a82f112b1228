import { AppError } from '../../errors/app-error.ts';
import { ProviderError } from './moonpay/client.ts';
import { ProviderAnswerError } from './moonpay/decimals.ts';

/**
 * A provider call whose failure is the user's answer: a refusal of the request (4xx) is their
 * input's fault (VALIDATION_FAILED with the provider's words), anything else "service
 * communication failed" (503), never a 500.
 */
export async function callProvider<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ProviderError && err.status !== null && err.status >= 400 && err.status < 500) {
      throw new AppError('VALIDATION_FAILED', err.message, {
        details: [{ field: 'amountMinor', message: err.message, rule: 'provider' }],
      });
    }
    if (err instanceof ProviderError || err instanceof ProviderAnswerError) {
      throw new AppError('RAMP_PROVIDER_UNAVAILABLE', 'Service communication failed', { cause: err });
    }
    throw err;
  }
}
