import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { recipientQuery } from '../api/send-queries.ts';

const CHECK_DELAY_MS = 400;

/**
 * The recipient of a transfer, checked with the server as it is typed (debounced): it exists and is
 * not the sender. Runs only for a target that already looks right; nothing is e-mailed.
 */
export function useRecipientCheck(target: string, kind: 'email' | 'address', enabled: boolean) {
  const [settled, setSettled] = useState(target);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(target), CHECK_DELAY_MS);
    return () => clearTimeout(timer);
  }, [target]);
  const query = useQuery(recipientQuery(kind, settled, enabled && settled === target));
  return { ...query, pending: enabled && (settled !== target || query.isPending || query.isFetching) };
}
