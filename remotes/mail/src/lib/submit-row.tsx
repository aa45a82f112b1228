import { Button } from 'antd-mobile';
import type { ReactNode } from 'react';
import * as form from './form.module.css';

/** The end of every form here: what is wrong (announced), then the submit button. */
export function SubmitRow(props: {
  problem: string | null;
  problemTestId: string;
  submitTestId: string;
  loading: boolean;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      {props.problem ? (
        <p className={form.problem} role="alert" data-testid={props.problemTestId}>
          {props.problem}
        </p>
      ) : null}
      <Button
        block
        color="primary"
        type="submit"
        loading={props.loading}
        disabled={props.disabled}
        data-testid={props.submitTestId}
      >
        {props.children}
      </Button>
    </>
  );
}
