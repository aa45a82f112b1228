import { readFileSync } from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';
import QRCode from 'qrcode';
import { type FaucetResult, faucetSend } from '../../server/src/modules/chain/dev-faucet.ts';
import { mailIdsOf, readCode } from '../account/account-helpers.ts';
import { signedInByApi } from '../account/sign-in-by-api.ts';
import { E2E_DATA_DIR } from '../support/e2e-env.ts';

export const GOOD_ETH_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
/** The same address with one letter's case flipped: its EIP-55 checksum fails. */
export const BAD_CHECKSUM_ADDRESS = '0x52908400098527886e0F7030069857D2E4169EE7';

/** The e2e server's data folder (chains.json, keys); overridable to run the specs against another server. */
export function e2eDataDir(): string {
  return process.env.WALLET_E2E_DATA_DIR ?? E2E_DATA_DIR;
}

export interface ChainsFile {
  [network: string]: { chainId: number; rpcUrl: string; tokens: Record<string, `0x${string}`> } | undefined;
}

export function readChains(): ChainsFile | null {
  try {
    return JSON.parse(readFileSync(path.join(e2eDataDir(), 'chains.json'), 'utf8')) as ChainsFile;
  } catch {
    return null;
  }
}

/** A QR code PNG of `text`, made in the test (nothing from disk). */
export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { type: 'png', width: 320, margin: 4, errorCorrectionLevel: 'M' });
}

/**
 * A fresh account, registered and signed in through the API, in a new context. The page is blank: a
 * test opens its own screen with page.goto, one app load (the session cookie is in the context). The
 * sign-in screen and its redirect are covered by e2e/account (register, validation, security, passkeys,
 * new-device) and account-security; loading it here cost every caller a load of /login and the wallet.
 */
export function signedInPage(browser: Browser, tag: string, country = 'ES') {
  return signedInByApi(browser, tag, country);
}

/**
 * Choose a day in a DateField (antd-mobile's wheel picker, zh-CN labels): tap the year, month and day
 * on their wheels, then confirm.
 */
export async function pickDate(page: Page, testId: string, day: string): Promise<void> {
  const [year, month, date] = day.split('-').map(Number);
  await page.getByTestId(testId).click();
  const picker = page.locator('.adm-picker').last();
  await expect(picker).toBeVisible();
  const labels = [`${year}年`, `${month}月`, `${date}日`];
  for (const [index, label] of labels.entries()) {
    const item = picker
      .locator('.adm-picker-view-column')
      .nth(index)
      .locator('.adm-picker-view-column-item', {
        hasText: new RegExp(`^${label}$`),
      });
    // A wheel re-renders while it settles (a new month changes the day column): tap until it holds.
    await expect(async () => {
      await item.dispatchEvent('click');
      await expect(item).toHaveAttribute('data-selected', 'true', { timeout: 1_000 });
    }).toPass({ timeout: 10_000 });
  }
  await picker.locator('.adm-picker-header-button').last().click();
  await expect(page.getByTestId(testId)).toHaveAttribute('data-value', day);
}

/** Upload a file into the scanner's gallery picker. */
export async function pickGalleryImage(page: Page, file: { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByTestId('qr-scanner-file').setInputFiles(file);
}

/** Switch a signed-in user's language: the settings live on the server once signed in. */
export async function setLanguage(page: Page, language: 'zh-CN' | 'zh-TW' | 'en' | 'es'): Promise<void> {
  // A new account stores the browser's settings on its first sync: let that land first, or it could
  // overwrite the language set here.
  await expect
    .poll(async () => ((await (await page.request.get('/api/me/settings')).json()) as { saved?: boolean }).saved)
    .toBe(true);
  const current = (await (await page.request.get('/api/me/settings')).json()) as Record<string, unknown>;
  // `saved` is what GET says of the settings, not part of a PUT.
  const { saved: _saved, ...settings } = current;
  const saved = await page.request.put('/api/me/settings', { data: { ...settings, language } });
  if (!saved.ok()) throw new Error(`saving the language answered ${saved.status()}`);
  await page.evaluate((lang) => window.localStorage.setItem('lang', lang), language);
}

/**
 * Test funds from the local chain's dev account (what `npm run faucet` does: the same function,
 * modules/chain/dev-faucet.ts), against the e2e server's chains.json. In this process: spawning the
 * script cost seconds of CPU per call and blocked the worker.
 */
export async function faucet(
  address: string,
  amount: string,
  asset: string,
  network: 'ethereum' | 'bsc',
): Promise<FaucetResult> {
  const result = await faucetSend({ address, amount, asset, network, dataDir: e2eDataDir() });
  if (result.status !== 'success') throw new Error(`faucet: ${asset} to ${address} reverted (${result.txHash})`);
  return result;
}

/** Mine blocks at once on a local anvil chain (so a 64-confirmation deposit needs no minute of waiting). */
export async function mineBlocks(rpcUrl: string, blocks: number): Promise<void> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_mine', params: [`0x${blocks.toString(16)}`] }),
  });
  const body = (await response.json()) as { error?: unknown };
  if (body.error) throw new Error(`anvil_mine failed: ${JSON.stringify(body.error)}`);
}

/**
 * Sets the signed-in user's fund password through the API with an e-mailed `fund_password` code (a
 * sell and a new payout method take it, issue 38). A first fund password holds no outflow.
 */
export async function setFundPasswordByApi(request: APIRequestContext, email: string, fundPassword: string) {
  const since = Date.now();
  // The registration's code was mailed a moment ago: read only a new message.
  const seen = await mailIdsOf(request, email);
  const sent = await request.post('/api/auth/codes', { data: { purpose: 'fund_password' } });
  expect(sent.status()).toBe(202);
  const code = await readCode(request, email, since, seen);
  const set = await request.post('/api/me/fund-password', {
    data: { code, fundPassword, confirmFundPassword: fundPassword },
  });
  expect(set.status()).toBe(204);
}
