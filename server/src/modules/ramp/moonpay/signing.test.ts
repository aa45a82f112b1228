import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isUrlSignatureValid, signUrl, urlSignature, verifyWebhook, webhookHeader } from './signing.ts';

// MoonPay's documented example (dev.moonpay.com, "URL signing"): this URL, secret `sk_test_key`, the
// HMAC-SHA256 of the query string `?apiKey=...&walletAddress=...` in base64, appended URL-encoded.
const DOC_URL =
  'https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';
const DOC_QUERY = '?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae';

describe('MoonPay URL signing', () => {
  it("matches the documented example (the PHP sample's hash_hmac over the query string)", () => {
    const expected = createHmac('sha256', 'sk_test_key').update(DOC_QUERY).digest('base64');
    expect(urlSignature(DOC_URL, 'sk_test_key')).toBe(expected);
    expect(signUrl(DOC_URL, 'sk_test_key')).toBe(`${DOC_URL}&signature=${encodeURIComponent(expected)}`);
  });

  it('validates a signed URL and refuses a changed one', () => {
    const signed = signUrl(DOC_URL, 'sk_test_key');
    expect(isUrlSignatureValid(signed, 'sk_test_key')).toBe(true);
    expect(isUrlSignatureValid(signed.replace('currencyCode=eth', 'currencyCode=btc'), 'sk_test_key')).toBe(false);
    expect(isUrlSignatureValid(signed, 'sk_other')).toBe(false);
    expect(isUrlSignatureValid(DOC_URL, 'sk_test_key')).toBe(false);
  });
});

describe('MoonPay webhook signature (Moonpay-Signature-V2)', () => {
  const body = '{"type":"transaction_updated","data":{"id":"t1","status":"completed"}}';
  const key = 'wk_test_key';
  const t = 1_800_000_000;
  const nowMs = t * 1000 + 5_000;

  it('accepts t=..,s=HMAC-SHA256(t.body) in hex', () => {
    const s = createHmac('sha256', key).update(`${t}.${body}`).digest('hex');
    expect(webhookHeader(t, body, key)).toBe(`t=${t},s=${s}`);
    expect(verifyWebhook(`t=${t},s=${s}`, body, key, nowMs, 300)).toEqual({ ok: true, timestampS: t });
  });

  it('refuses a tampered body, a wrong key, a stale or future timestamp, and malformed headers', () => {
    const header = webhookHeader(t, body, key);
    expect(verifyWebhook(header, body.replace('completed', 'failed'), key, nowMs, 300)).toEqual({
      ok: false,
      reason: 'mismatch',
    });
    expect(verifyWebhook(header, body, 'wk_other', nowMs, 300)).toEqual({ ok: false, reason: 'mismatch' });
    expect(verifyWebhook(header, body, key, nowMs + 301_000, 300)).toEqual({ ok: false, reason: 'stale' });
    expect(verifyWebhook(header, body, key, t * 1000 - 400_000, 300)).toEqual({ ok: false, reason: 'stale' });
    for (const bad of [undefined, '', 's=abc', 't=abc,s=00', `t=${t}`, 'x'.repeat(600)]) {
      expect(verifyWebhook(bad, body, key, nowMs, 300).ok).toBe(false);
    }
  });

  it('accepts either of two signatures (key rotation)', () => {
    const good = webhookHeader(t, body, key).split(',s=')[1];
    expect(verifyWebhook(`t=${t},s=${'0'.repeat(64)},s=${good}`, body, key, nowMs, 300).ok).toBe(true);
  });
});
