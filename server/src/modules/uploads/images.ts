import sharp from 'sharp';
import { type FileType, PIXEL_LIMIT } from './places.ts';

/**
 * A raster image decoded and encoded again: the orientation from EXIF applied to the pixels, and
 * every piece of metadata (EXIF with GPS, XMP, ICC comments) left behind, since sharp writes none
 * unless asked. Anything hidden after the image data is gone too. Over PIXEL_LIMIT is refused.
 */
export async function reencodeImage(
  inputPath: string,
  type: FileType,
): Promise<{ data: Buffer; width: number; height: number }> {
  const image = sharp(inputPath, { limitInputPixels: PIXEL_LIMIT, animated: type === 'gif', failOn: 'error' }).rotate();
  const encoded =
    type === 'jpg'
      ? image.jpeg({ quality: 88 })
      : type === 'png'
        ? image.png()
        : type === 'gif'
          ? image.gif()
          : image.webp({ quality: 88 });
  const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.pageHeight ?? info.height };
}
