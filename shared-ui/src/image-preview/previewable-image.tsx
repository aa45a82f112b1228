import { type ImgHTMLAttributes, useState } from 'react';
import { ImagePreview } from './image-preview.tsx';
import { useLongPress } from './use-long-press.ts';

export interface PreviewableImageProps extends Omit<ImgHTMLAttributes<HTMLImageElement>, 'src'> {
  src: string;
  /** All images of the gallery (default: just this one) and this image's place in it. */
  images?: readonly string[];
  index?: number;
  /** 'long-press' (kit default: a press of 500 ms or more) or also a plain tap. */
  openOn?: 'long-press' | 'tap';
}

/** A thumbnail that opens the full-screen preview. */
export function PreviewableImage({
  src,
  images,
  index = 0,
  openOn = 'long-press',
  alt = '',
  ...imgProps
}: PreviewableImageProps) {
  const [open, setOpen] = useState(false);
  const [current, setCurrent] = useState(index);
  const show = () => {
    setCurrent(index);
    setOpen(true);
  };
  const longPress = useLongPress(show);
  return (
    <>
      <img
        {...imgProps}
        src={src}
        alt={alt}
        data-testid="previewable-image"
        {...longPress}
        {...(openOn === 'tap'
          ? {
              role: 'button',
              tabIndex: 0,
              onClick: show,
              onKeyDown: (event: { key: string }) => {
                if (event.key === 'Enter' || event.key === ' ') show();
              },
            }
          : {})}
        style={{ WebkitTouchCallout: 'none', userSelect: 'none', ...imgProps.style }}
      />
      <ImagePreview
        images={images ?? [src]}
        visible={open}
        index={current}
        onIndexChange={setCurrent}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
