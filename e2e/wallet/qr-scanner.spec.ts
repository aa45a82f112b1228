import { expect, test } from '../support/fixtures.ts';
import { GOOD_ETH_ADDRESS, pickGalleryImage, qrPng, signedInPage } from './wallet-helpers.ts';

const ZXING_MARKER = 'Video stream has ended before any code could be detected';

test('the QR scanner decodes a gallery image into the address field and reports unreadable images', async ({
  browser,
}) => {
  const { context, page } = await signedInPage(browser, 'qr');
  // Which scripts carry the ZXing library (a message string of its video decoder marks it).
  const scripts: Promise<boolean>[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('.js')) {
      scripts.push(
        response.text().then(
          (body) => body.includes(ZXING_MARKER),
          () => false,
        ),
      );
    }
  });
  const zxingLoaded = async () => (await Promise.all(scripts)).some(Boolean);
  await page.goto('/addressBook/add');
  await expect(page.getByTestId('wallet-address-add')).toBeVisible();
  await expect(page.getByTestId('address-add-address-scan')).toBeVisible();
  expect(await zxingLoaded()).toBe(false);

  await page.getByTestId('address-add-address-scan').click();
  const scanner = page.getByTestId('qr-scanner');
  await expect(scanner).toBeVisible();
  await expect(scanner.getByRole('heading')).toHaveText('扫一扫');
  await expect(scanner).toContainText('将二维码放入框内，即可自动扫描地址');
  await expect(scanner.locator('.cw-scanner__corner')).toHaveCount(4);
  // The library arrives only now that the scanner is open.
  await expect.poll(zxingLoaded).toBe(true);

  // Not an image at all.
  await pickGalleryImage(page, { name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByTestId('qr-scanner-error')).toHaveText('图片格式错误');

  // An image without a QR code: a screenshot of the dark scanner bar.
  const blank = await page.screenshot({ clip: { x: 0, y: 0, width: 120, height: 120 } });
  await pickGalleryImage(page, { name: 'blank.png', mimeType: 'image/png', buffer: blank });
  await expect(page.getByTestId('qr-scanner-error')).toHaveText('未识别到二维码');

  // A claimed image that is not one.
  await pickGalleryImage(page, { name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png') });
  await expect(page.getByTestId('qr-scanner-error')).toHaveText('图片格式错误');

  // A QR code of a payment URI: the address lands in the field and the scanner closes.
  const png = await qrPng(`ethereum:${GOOD_ETH_ADDRESS}?value=0`);
  await pickGalleryImage(page, { name: 'address.png', mimeType: 'image/png', buffer: png });
  await expect(scanner).toHaveCount(0);
  await expect(page.getByTestId('address-add-address').locator('textarea')).toHaveValue(GOOD_ETH_ADDRESS);

  // Closing the scanner leaves no camera running.
  await page.getByTestId('address-add-address-scan').click();
  await expect(scanner).toBeVisible();
  await page.getByTestId('qr-scanner-close').click();
  await expect(scanner).toHaveCount(0);
  const liveVideos = await page.evaluate(
    () =>
      [...document.querySelectorAll('video')].filter((video) => {
        const stream = video.srcObject as MediaStream | null;
        return stream?.getTracks().some((track) => track.readyState === 'live') ?? false;
      }).length,
  );
  expect(liveVideos).toBe(0);
  await context.close();
});
