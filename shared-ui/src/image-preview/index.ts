export * from './gestures.ts';
export { ImagePreview, type ImagePreviewProps } from './image-preview.tsx';
export { PreviewableImage, type PreviewableImageProps } from './previewable-image.tsx';
export { useLongPress } from './use-long-press.ts';
