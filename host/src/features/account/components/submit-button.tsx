import Button from 'antd-mobile/es/components/button';
import type { ReactNode } from 'react';

/** The full-width primary submit button every account form ends with. */
export function SubmitButton({ loading, testId, children }: { loading: boolean; testId: string; children: ReactNode }) {
  return (
    <Button
      type="submit"
      color="primary"
      block
      size="large"
      loading={loading}
      className="account-submit"
      data-testid={testId}
    >
      {children}
    </Button>
  );
}
