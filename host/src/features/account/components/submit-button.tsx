import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';
import { useHydrated } from '../hooks/use-hydrated.ts';

/** The full-width primary submit button every account form ends with. */
export function SubmitButton({ loading, testId, children }: { loading: boolean; testId: string; children: ReactNode }) {
  // Off in the pre-rendered page until the app has taken the form over: a submit before that would be the
  // browser's own (a GET with the password in the address), not the app's.
  const live = useHydrated();
  return (
    <Button
      type="submit"
      color="primary"
      block
      size="large"
      loading={loading}
      disabled={!live}
      className="account-submit"
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
