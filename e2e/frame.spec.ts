import { expect, test } from './support/fixtures.ts';

test('@desktop the desktop frame is 480 px wide, window height - 20 px high, centred', async ({ page }) => {
  await page.goto('/signIn');
  const frame = page.getByTestId('app-frame');
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('data-framed', 'true');
  const box = await frame.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error('no frame box or viewport');
  expect(box.width).toBe(480);
  expect(box.height).toBe(viewport.height - 20);
  expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThanOrEqual(1);
  expect(Math.abs(box.y + box.height / 2 - viewport.height / 2)).toBeLessThanOrEqual(1);
});

test('on a phone the frame fills the viewport', async ({ page }) => {
  await page.goto('/signIn');
  const frame = page.getByTestId('app-frame');
  await expect(frame).toBeVisible();
  await expect(frame).toHaveAttribute('data-framed', 'false');
  const box = await frame.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) throw new Error('no frame box or viewport');
  expect(viewport.width).toBe(390);
  expect(box.width).toBe(viewport.width);
  expect(box.height).toBe(viewport.height);
  expect(box.x).toBe(0);
  expect(box.y).toBe(0);
});
