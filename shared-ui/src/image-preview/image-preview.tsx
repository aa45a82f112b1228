import { CloseOutline } from 'antd-mobile-icons';
import { createPortal } from 'react-dom';
import { useUiTranslation } from '../i18n/index.ts';
import { swipeDuration } from './gestures.ts';
import './image-preview.css';
import { usePreviewGestures } from './use-preview-gestures.ts';

export interface ImagePreviewProps {
  images: readonly string[];
  visible: boolean;
  /** The image shown. */
  index: number;
  onIndexChange: (index: number) => void;
  onClose: () => void;
}

/**
 * Full-screen image preview: swipe between images (300 ms slide; velocity
 * >= 0.25 px/ms or a drag over half the width), double tap (within 250 ms)
 * to zoom, pinch between 1/3 and 3, single tap or the close button to close.
 */
export function ImagePreview(props: ImagePreviewProps) {
  const { images, visible, index, onClose } = props;
  const { t } = useUiTranslation();
  const { stage, zoom, dragX, dragging, handlers } = usePreviewGestures(props);
  if (!visible || typeof document === 'undefined') return null;

  const offset = `calc(${-index * 100}% + ${dragX}px)`;
  return createPortal(
    <div
      className="cw-preview"
      role="dialog"
      aria-modal="true"
      aria-label={t('preview.counter', { current: index + 1, total: images.length })}
      data-testid="image-preview"
    >
      <div ref={stage} className="cw-preview__stage" data-testid="image-preview-stage" {...handlers}>
        <div
          className="cw-preview__track"
          style={{
            transform: `translateX(${offset})`,
            transition: dragging ? 'none' : `transform ${swipeDuration(true)}ms ease-out`,
          }}
        >
          {images.map((src, i) => (
            <div className="cw-preview__slide" key={`${src}-${i}`}>
              <img
                src={src}
                alt={t('preview.image', { n: i + 1 })}
                draggable={false}
                data-testid="image-preview-image"
                style={i === index ? { transform: `scale(${zoom})` } : undefined}
              />
            </div>
          ))}
        </div>
      </div>
      <div className="cw-preview__counter" data-testid="image-preview-counter">
        {t('preview.counter', { current: index + 1, total: images.length })}
      </div>
      <button
        type="button"
        className="cw-preview__close"
        data-testid="image-preview-close"
        aria-label={t('preview.close')}
        onClick={onClose}
      >
        <CloseOutline aria-hidden />
      </button>
    </div>,
    document.body,
  );
}
