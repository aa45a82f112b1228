import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { registerUser, useAuthHarness } from '../auth/test-helpers.ts';
import { operatorCookie } from '../operators/test-helpers.ts';
import { createLocalStore } from './storage.ts';
import { HOSTILE_SVG, jpegWithGps, multipart, png } from './test-helpers.ts';

const dir = await mkdtemp(path.join(os.tmpdir(), 'cw-uploads-test-'));
const h = useAuthHarness({
  uploads: { store: createLocalStore(dir), tmpDir: path.join(dir, 'tmp'), quotaBytes: 3 * 1024 * 1024 },
});

async function upload(cookie: string, name: string, bytes: Buffer, place = 'ticket', contentType?: string) {
  const body = multipart(name, bytes, contentType);
  return h.app.inject({
    method: 'POST',
    url: `/api/uploads?place=${place}`,
    headers: { ...body.headers, cookie },
    payload: body.payload,
  });
}

describe('uploads', () => {
  it('a photo is re-encoded: EXIF and its GPS position are gone, the file is sent as an attachment', async () => {
    const { cookie } = await registerUser(h);
    const original = await jpegWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const res = await upload(cookie, 'holiday.jpg', original);
    expect(res.statusCode, res.body).toBe(201);
    const file = res.json();
    expect(file).toMatchObject({ kind: 'image', mediaType: 'image/jpeg', width: 64, height: 48, name: 'holiday.jpg' });
    expect(file.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const got = await h.app.inject({ method: 'GET', url: file.url, headers: { cookie } });
    expect(got.statusCode).toBe(200);
    expect(got.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
    });
    expect(String(got.headers['content-disposition'])).toMatch(/^attachment; filename="holiday.jpg"/);
    const meta = await sharp(got.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(got.rawPayload.includes(Buffer.from('PhoneCo'))).toBe(false);
  });

  it('the bytes decide: a PNG named .svg and HTML named .png are refused, and so is a type not allowed there', async () => {
    const { cookie } = await registerUser(h);
    const asSvg = await upload(cookie, 'picture.svg', await png(), 'ticket', 'image/svg+xml');
    expect([asSvg.statusCode, asSvg.json().code]).toEqual([415, 'FILE_TYPE_REFUSED']);
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    const asPng = await upload(cookie, 'picture.png', html, 'ticket', 'image/png');
    expect([asPng.statusCode, asPng.json().code]).toEqual([415, 'FILE_TYPE_REFUSED']);
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const pdfInTicket = await upload(cookie, 'statement.pdf', pdf, 'ticket');
    expect(pdfInTicket.statusCode).toBe(415);
    const pdfInChat = await upload(cookie, 'statement.pdf', pdf, 'chat');
    expect(pdfInChat.statusCode, pdfInChat.body).toBe(201);
    expect(pdfInChat.json()).toMatchObject({ kind: 'file', mediaType: 'application/pdf' });
    const fetched = await h.app.inject({ method: 'GET', url: pdfInChat.json().url, headers: { cookie } });
    expect(fetched.rawPayload.equals(pdf)).toBe(true);
  });

  it('an SVG is sanitised (kept for download only) and shown as a PNG drawing', async () => {
    const { cookie } = await registerUser(h);
    const res = await upload(cookie, 'diagram.svg', Buffer.from(HOSTILE_SVG));
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'image', mediaType: 'image/svg+xml', width: 40, height: 40 });
    const shown = await h.app.inject({ method: 'GET', url: res.json().url, headers: { cookie } });
    expect(shown.headers['content-type']).toBe('image/png');
    expect((await sharp(shown.rawPayload).metadata()).format).toBe('png');
    const kept = await h.app.inject({ method: 'GET', url: `${res.json().url}?variant=original`, headers: { cookie } });
    expect(String(kept.headers['content-disposition'])).toMatch(/^attachment/);
    const text = kept.body;
    expect(text).toContain('<rect');
    for (const bad of ['<script', 'onload', 'onclick', 'javascript:', 'foreignObject', 'iframe', 'file://'])
      expect(text.toLowerCase()).not.toContain(bad.toLowerCase());
  });

  it('over the place limit is 413 FILE_TOO_LARGE; no file is 400; the quota is kept', async () => {
    const { cookie } = await registerUser(h);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 1);
    const tooBig = await upload(cookie, 'big.png', big);
    expect([tooBig.statusCode, tooBig.json().code, tooBig.json().details]).toEqual([
      413,
      'FILE_TOO_LARGE',
      { limit: 5 * 1024 * 1024 },
    ]);
    const none = await h.app.inject({
      method: 'POST',
      url: '/api/uploads?place=ticket',
      headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' },
      payload: '--x--\r\n',
    });
    expect(none.statusCode).toBe(400);
    // Noise does not compress: ~1.2 MB a picture against a 3 MiB quota.
    const noisy = await sharp(
      Buffer.from(Array.from({ length: 640 * 640 * 3 }, () => Math.floor(Math.random() * 256))),
      {
        raw: { width: 640, height: 640, channels: 3 },
      },
    )
      .png({ compressionLevel: 0 })
      .toBuffer();
    const codes: number[] = [];
    for (let i = 0; i < 3; i++) codes.push((await upload(cookie, `noise${i}.png`, noisy)).statusCode);
    expect(codes.slice(0, 2)).toEqual([201, 201]);
    const over = await upload(cookie, 'noise3.png', noisy);
    expect([over.statusCode, over.json().code]).toEqual([409, 'STORAGE_QUOTA_EXCEEDED']);
  });

  it('only the owner and operators read a file; anyone else gets 404, a visitor 401', async () => {
    const owner = await registerUser(h);
    const other = await registerUser(h);
    const res = await upload(owner.cookie, 'mine.png', await png());
    const url = res.json().url as string;
    expect((await h.app.inject({ method: 'GET', url, headers: { cookie: other.cookie } })).statusCode).toBe(404);
    expect((await h.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    const ops = await operatorCookie(h.app, { db: h.db, now: h.clock.now }, 'upload_ops');
    const asOps = await h.app.inject({
      method: 'GET',
      url: `/api/ops/uploads/${res.json().id}`,
      headers: { cookie: ops },
    });
    expect(asOps.statusCode).toBe(200);
  });
});
