import { CheckOutline } from 'antd-mobile-icons';

/** The tick beside the chosen option of a list. */
export function CheckMark({ checked }: { checked: boolean }) {
  return checked ? <CheckOutline color="var(--adm-color-primary)" fontSize={18} aria-hidden /> : null;
}
