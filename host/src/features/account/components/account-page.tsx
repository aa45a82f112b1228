import 'antd-mobile/es/global';
import NavBar from 'antd-mobile/es/components/nav-bar';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

/** Account screen layout: a NavBar with the translated title (and back), then the content. */
export function AccountPage(props: {
  title: string;
  children: ReactNode;
  backTo?: string | false;
  testId: string;
  /** The nav bar's right side (e.g. the language switch). */
  right?: ReactNode;
}) {
  const navigate = useNavigate();
  const back = props.backTo === false ? null : undefined;
  const onBack = () => {
    if (typeof props.backTo === 'string') navigate(props.backTo);
    else if (window.history.length > 1) navigate(-1);
    else navigate('/');
  };
  return (
    <div className="account-page" data-testid={props.testId}>
      <NavBar
        back={back}
        backIcon={props.backTo === false ? false : undefined}
        onBack={onBack}
        right={props.right}
        className="account-page__nav"
      >
        <h1 className="account-page__title">{props.title}</h1>
      </NavBar>
      <main className="account-page__body">{props.children}</main>
    </div>
  );
}
