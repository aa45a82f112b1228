import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newAccount, registerByApi } from '../account/account-helpers.ts';
import { signInByApi } from '../account/sign-in-by-api.ts';
import { PHONE_DPR } from '../support/e2e-env.ts';
import { expect, test } from '../support/fixtures.ts';
import { GOOD_ETH_ADDRESS, qrPng } from './wallet-helpers.ts';

// The camera's video is made from a screenshot of a canvas: a phone's pixels, as before.
test.use({ deviceScaleFactor: PHONE_DPR });

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

test('the camera view reads a QR code: Chromium plays a video of one as its fake camera', async ({
  playwright,
  baseURL,
}) => {
  const folder = mkdtempSync(path.join(tmpdir(), 'cw-qr-camera-'));
  try {
    // Chromium's fake camera plays an MJPEG file: JPEG frames back to back. Draw one frame with Chromium itself.
    const painter = await playwright.chromium.launch({ executablePath: CHROMIUM, args: BASE_ARGS });
    const canvas = await painter.newPage({ viewport: { width: 640, height: 480 } });
    const png = (await qrPng(GOOD_ETH_ADDRESS)).toString('base64');
    await canvas.setContent(
      `<body style="margin:0;background:#fff;display:flex;align-items:center;justify-content:center;height:480px">` +
        `<img src="data:image/png;base64,${png}" width="360" height="360"></body>`,
    );
    const frame = await canvas.screenshot({ type: 'jpeg', quality: 95 });
    await painter.close();
    const video = path.join(folder, 'qr.mjpeg');
    writeFileSync(video, Buffer.concat([frame, frame, frame]));

    const browser = await playwright.chromium.launch({
      executablePath: CHROMIUM,
      args: [
        ...BASE_ARGS,
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
        `--use-file-for-fake-video-capture=${video}`,
      ],
    });
    const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 }, isMobile: true });
    await context.grantPermissions(['camera']);
    const account = newAccount('camqr');
    await registerByApi(context.request, account);
    await signInByApi(context, account.username, account.password);
    const page = await context.newPage();
    await page.goto('/addressBook/add');
    await page.getByTestId('address-add-address-scan').click();
    await expect(page.getByTestId('qr-scanner')).toBeVisible();
    // Decoded from the video: the overlay closes itself and the address is filled in.
    await expect(page.getByTestId('qr-scanner')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('address-add-address').locator('textarea')).toHaveValue(GOOD_ETH_ADDRESS);
    await browser.close();
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});
