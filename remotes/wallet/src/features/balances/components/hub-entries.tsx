import { useTranslation } from '@cw/shared-state/i18n';
import { useNavigate } from '@cw/shared-state/router';
import { Grid } from 'antd-mobile';
import {
  BankcardOutline,
  ContentOutline,
  LoopOutline,
  RightOutline,
  SendOutline,
  UnorderedListOutline,
} from 'antd-mobile-icons';
import type { ReactNode } from 'react';
import { NAMESPACE } from '../../../i18n.ts';
import * as styles from './hub-screen.module.css';

function Entry({ icon, label, to, testId }: { icon: ReactNode; label: string; to: string; testId: string }) {
  const navigate = useNavigate();
  return (
    <button type="button" className={styles.entry} data-testid={testId} onClick={() => void navigate(to)}>
      <span className={styles.entryIcon} aria-hidden>
        {icon}
      </span>
      <span className={styles.entryLabel}>{label}</span>
    </button>
  );
}

/** The ways in and out: deposit, send, history, address book, and convert / exchange. */
export function HubEntries() {
  const { t } = useTranslation(NAMESPACE);
  const navigate = useNavigate();
  return (
    <>
      <Grid columns={4} gap={4} className={styles.entries}>
        <Entry icon={<BankcardOutline />} label={t('hub.deposit')} to="/coinTopup/deposit" testId="hub-deposit" />
        <Entry icon={<SendOutline />} label={t('hub.send')} to="/coinTopup/send" testId="hub-send" />
        <Entry icon={<UnorderedListOutline />} label={t('hub.history')} to="/coinTopup/history" testId="hub-history" />
        <Entry icon={<ContentOutline />} label={t('hub.addressBook')} to="/addressBook" testId="hub-address-book" />
      </Grid>
      <button type="button" className={styles.trade} data-testid="hub-trade" onClick={() => void navigate('/exchange')}>
        <span className={styles.entryIcon} aria-hidden>
          <LoopOutline />
        </span>
        <span className={styles.tradeText}>
          <span className={styles.tradeTitle}>{t('hub.trade')}</span>
          <span className={styles.tradeHint}>{t('hub.tradeHint')}</span>
        </span>
        <RightOutline aria-hidden className={styles.tradeArrow} />
      </button>
    </>
  );
}
