import { useTranslation } from '@cw/shared-state/i18n';
import { UploadList } from '@cw/shared-ui/upload-list';
import { NAMESPACE } from '../i18n.ts';
import * as form from './form.module.css';
import { UPLOAD_RULES } from './upload.ts';
import type { usePictures } from './use-pictures.ts';

/** Pictures on one message (tickets and left messages: the specification's 5). */
export const PICTURES_MAX = 5;

/** Up to 5 pictures (jpg, png, gif or svg, each up to 5 MB), uploading as they are picked. */
export function PictureField({ id, pictures }: { id: string; pictures: ReturnType<typeof usePictures> }) {
  const rules = UPLOAD_RULES[pictures.place];
  const { t } = useTranslation(NAMESPACE);
  return (
    <div data-testid={id}>
      <span className={form.label}>{t('tickets.pictures', { max: PICTURES_MAX })}</span>
      <p className={form.hint}>{t('tickets.picturesHint')}</p>
      <UploadList
        items={pictures.items}
        onAdd={pictures.add}
        onRemove={pictures.remove}
        accept={rules.accept}
        maxSize={rules.maxSize}
        maxCount={PICTURES_MAX}
      />
    </div>
  );
}
