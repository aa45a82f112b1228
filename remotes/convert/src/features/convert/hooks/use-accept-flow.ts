import { useErrorMessage } from '@cw/shared-state/errors';
import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { toast } from '@cw/shared-ui/toast';
import { useState } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import { useAcceptQuoteMutation } from '../api/convert-queries.ts';
import { type HeldQuote, holdQuote } from '../utils/held-quote.ts';

/**
 * Preview -> confirm -> convert, as Binance Convert does. A quote that expired meanwhile comes back
 * re-quoted: the "rate expired and updated" dialog shows the new one, which needs its own confirm.
 */
export function useAcceptFlow(onKeepRequote: (quote: HeldQuote) => void) {
  const { t } = useTranslation(NAMESPACE);
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const [preview, setPreview] = useState<HeldQuote | null>(null);
  const [requote, setRequote] = useState<HeldQuote | null>(null);
  const mutation = useAcceptQuoteMutation();

  const accept = (target: HeldQuote) =>
    mutation.mutate(target.quoteId, {
      onSuccess: (result) => {
        setPreview(null);
        if (result.outcome === 'requoted') {
          setRequote(holdQuote(result.quote));
          return;
        }
        setRequote(null);
        toast.success(t('convert.done'));
        void navigate(`/convert/detail?id=${result.conversion.id}`);
      },
      onError: (error) => toast.fail(errorMessage(error)),
    });

  return {
    preview,
    openPreview: setPreview,
    closePreview: () => setPreview(null),
    requote,
    /** Nothing was converted: keep showing the new rate on the screen. */
    dismissRequote: () => {
      if (requote) onKeepRequote(requote);
      setRequote(null);
    },
    accept,
    busy: mutation.isPending,
  };
}
