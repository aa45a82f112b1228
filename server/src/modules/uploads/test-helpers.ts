import sharp from 'sharp';

/** Test-only: a multipart/form-data body with one file part named `file`. */
export function multipart(name: string, bytes: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----cw${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    payload: Buffer.concat([head, bytes, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Test-only: a small JPEG carrying EXIF with a GPS position, as a phone camera writes it. */
export async function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 30, b: 30 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Camera 1' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '31/1 14/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '121/1 28/1 0/1' },
    })
    .toBuffer();
}

/** Test-only: a PNG of noise, which does not compress: about 3 bytes a pixel. */
export async function noisyPng(width: number, height: number): Promise<Buffer> {
  return sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .png()
    .toBuffer();
}

export async function png(width = 32, height = 32): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 120, b: 255, alpha: 1 } } })
    .png()
    .toBuffer();
}

/** Everything an SVG can carry that runs: script, handlers, javascript: links, foreignObject HTML. */
export const HOSTILE_SVG = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="40" onload="window.__svgRan=1">
  <script>window.__svgRan = 2</script>
  <a xlink:href="javascript:window.__svgRan=3"><rect width="40" height="40" fill="green"/></a>
  <foreignObject width="40" height="40"><iframe xmlns="http://www.w3.org/1999/xhtml" src="javascript:parent.__svgRan=4"></iframe></foreignObject>
  <image href="file:///etc/passwd" width="10" height="10"/>
  <circle cx="20" cy="20" r="10" fill="yellow" onclick="window.__svgRan=5"/>
</svg>`;
