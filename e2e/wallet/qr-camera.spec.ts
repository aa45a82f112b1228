import { expect, test } from '../support/fixtures.ts';
import { signedInPage } from './wallet-helpers.ts';

// Chromium's fake camera: a real MediaStream with a live video track, no permission prompt.
test.use({
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
    ],
  },
});

declare global {
  interface Window {
    __cameraStreams?: MediaStream[];
  }
}

test('the scanner shows the camera and closing it stops every camera track', async ({ browser }) => {
  const { context, page } = await signedInPage(browser, 'cam');
  await context.grantPermissions(['camera']);
  // Keep a handle on every stream the page opens, to check the tracks after closing.
  await page.addInitScript(() => {
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    window.__cameraStreams = [];
    navigator.mediaDevices.getUserMedia = async (constraints) => {
      const stream = await original(constraints);
      window.__cameraStreams?.push(stream);
      return stream;
    };
  });
  await page.goto('/coinTopup/send?coin=USDT&network=ethereum');
  await page.getByTestId('send-address-scan').click();
  await expect(page.getByTestId('qr-scanner')).toBeVisible();
  // Opening: the camera runs and the video plays (no "cannot open the camera" notice).
  await expect
    .poll(() => page.evaluate(() => window.__cameraStreams?.flatMap((s) => s.getTracks()).map((t) => t.readyState)))
    .toEqual(['live']);
  await expect(page.getByTestId('qr-scanner-status')).toHaveCount(0);
  await expect
    .poll(() => page.getByTestId('qr-scanner-video').evaluate((video: HTMLVideoElement) => video.readyState))
    .toBeGreaterThanOrEqual(2);

  await page.getByTestId('qr-scanner-close').click();
  await expect(page.getByTestId('qr-scanner')).toHaveCount(0);
  await expect
    .poll(() => page.evaluate(() => window.__cameraStreams?.flatMap((s) => s.getTracks()).map((t) => t.readyState)))
    .toEqual(['ended']);
  await context.close();
});
