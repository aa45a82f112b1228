import { useErrorMessage } from '@cw/shared-state/errors';
import { toast } from '@cw/shared-ui/toast';
import { useCallback } from 'react';

/**
 * Runs a settings change; a failure (e.g. the server refused it) shows a
 * translated message, a success optionally shows `success`.
 */
export function useSave(): (change: Promise<void>, success?: string) => Promise<boolean> {
  const errorMessage = useErrorMessage();
  return useCallback(
    async (change, success) => {
      try {
        await change;
        if (success) toast.success(success);
        return true;
      } catch (error) {
        toast.fail(errorMessage(error, 'SUBMIT_FAILED'));
        return false;
      }
    },
    [errorMessage],
  );
}
