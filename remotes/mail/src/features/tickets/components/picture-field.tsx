import { useTranslation } from '@cw/shared-state/i18n';
import { UploadList } from '@cw/shared-ui/upload-list';
import { NAMESPACE } from '../../../i18n.ts';
import * as form from '../../../lib/form.module.css';
import { UPLOAD_RULES } from '../../../lib/upload.ts';
import { PICTURES_MAX } from '../api/tickets.ts';
import type { usePictures } from '../hooks/use-pictures.ts';

/** Up to 5 pictures (jpg, png, gif or svg, each up to 5 MB), uploading as they are picked. */
export function PictureField({ id, pictures }: { id: string; pictures: ReturnType<typeof usePictures> }) {
  const { t } = useTranslation(NAMESPACE);
  return (
    <div data-testid={id}>
      <span className={form.label}>{t('tickets.pictures', { max: PICTURES_MAX })}</span>
      <p className={form.hint}>{t('tickets.picturesHint')}</p>
      <UploadList
        items={pictures.items}
        onAdd={pictures.add}
        onRemove={pictures.remove}
        accept={UPLOAD_RULES.ticket.accept}
        maxSize={UPLOAD_RULES.ticket.maxSize}
        maxCount={PICTURES_MAX}
      />
    </div>
  );
}
