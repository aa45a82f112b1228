import { useRef, useState } from 'react';

interface SubmitCallbacks<TResult> {
  onSuccess?: (result: TResult) => void;
  onError?: (error: unknown) => void;
}

/**
 * A form's request with its pending state, in the shape of react-query's useMutation (`mutate`,
 * `isPending`), for the landing screens (register, log in, reset): they must not load react-query,
 * which the signed-in screens and every remote use through useMutation. A second submit while one
 * is pending is ignored.
 */
export function useSubmit<TInput, TResult>(action: (input: TInput) => Promise<TResult>) {
  const [isPending, setPending] = useState(false);
  const pending = useRef(false);
  const mutate = (input: TInput, callbacks: SubmitCallbacks<TResult> = {}) => {
    if (pending.current) return;
    pending.current = true;
    setPending(true);
    action(input)
      .then(
        (result) => callbacks.onSuccess?.(result),
        (error: unknown) => callbacks.onError?.(error),
      )
      .finally(() => {
        pending.current = false;
        setPending(false);
      });
  };
  return { mutate, isPending };
}
