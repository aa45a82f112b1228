import { useTranslation } from '@cw/shared-state/i18n';
import { useSettings } from '@cw/shared-state/settings';
import { dialog, isDialogCancelled } from '@cw/shared-ui/dialog';
import { List } from 'antd-mobile';
import { NAMESPACE } from '../../../i18n.ts';
import { useSave } from '../../../lib/use-save.ts';

/** "Reset settings": asks first; cancel changes nothing. */
export function ResetRow() {
  const { t } = useTranslation(NAMESPACE);
  const save = useSave();
  const reset = useSettings((s) => s.reset);

  async function confirmReset() {
    try {
      await dialog.confirm({ title: t('reset.title'), text: t('reset.confirm') });
    } catch (error) {
      if (isDialogCancelled(error)) return;
      throw error;
    }
    await save(reset(), t('reset.done'));
  }

  return (
    <List.Item data-testid="settings-reset" onClick={() => void confirmReset()}>
      {t('hub.reset')}
    </List.Item>
  );
}
