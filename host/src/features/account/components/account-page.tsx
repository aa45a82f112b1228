// antd-mobile's theme variables (and :active on touch): the landing page's buttons need them.
import 'antd-mobile/es/global';
import { Page } from '@cw/shared-ui/page';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

/**
 * Account screen layout: the app's one page chrome (shared-ui Page: nav bar with the translated title,
 * back where there is a parent, the same side margins as every screen). `form` screens sit on white;
 * `list` screens (security settings) on the grey of the settings lists, lists edge to edge.
 */
export function AccountPage(props: {
  title: string;
  children: ReactNode;
  backTo?: string | false;
  testId: string;
  /** The nav bar's right side (e.g. the language switch). */
  right?: ReactNode;
  variant?: 'form' | 'list';
}) {
  const navigate = useNavigate();
  const onBack = () => {
    if (typeof props.backTo === 'string') navigate(props.backTo);
    else if (window.history.length > 1) navigate(-1);
    else navigate('/');
  };
  const variant = props.variant ?? 'form';
  return (
    <div className={`account-page account-page--${variant}`} data-testid={props.testId}>
      <Page
        title={props.title}
        back={props.backTo !== false}
        onBack={onBack}
        right={props.right}
        bodyClassName="account-page__body"
      >
        {props.children}
      </Page>
    </div>
  );
}
