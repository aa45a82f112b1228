import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { classifyDecodeError, isImageFile, QrScanner } from './index.ts';

function fakeStream() {
  const tracks = [{ stop: vi.fn() }, { stop: vi.fn() }];
  return { tracks, stream: { getTracks: () => tracks } as unknown as MediaStream };
}

describe('QrScanner overlay', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('renders nothing while closed', () => {
    render(<QrScanner open={false} onResult={() => {}} onClose={() => {}} />);
    expect(screen.queryByTestId('qr-scanner')).toBeNull();
  });

  it('shows the translated title, hint, corner markers and a gallery picker', () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    render(<QrScanner open onResult={() => {}} onClose={() => {}} />);
    const overlay = screen.getByTestId('qr-scanner');
    expect(screen.getByRole('heading').textContent).toBe('扫一扫');
    expect(overlay.textContent).toContain('将二维码放入框内，即可自动扫描地址');
    expect(overlay.querySelectorAll('.cw-scanner__corner')).toHaveLength(4);
    expect(screen.getByTestId('qr-scanner-file').getAttribute('accept')).toBe('image/*');
  });

  it('says so when there is no camera, and the gallery stays usable', async () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    render(<QrScanner open onResult={() => {}} onClose={() => {}} />);
    await waitFor(() =>
      expect(screen.getByTestId('qr-scanner-status').textContent).toBe('无法打开相机，请从相册选择二维码图片'),
    );
  });

  it('stops every camera track when closed while the camera is opening', async () => {
    const { tracks, stream } = fakeStream();
    let grant: (value: MediaStream) => void = () => {};
    const getUserMedia = vi.fn(() => new Promise<MediaStream>((resolve) => (grant = resolve)));
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: { getUserMedia } });
    const view = render(<QrScanner open onResult={() => {}} onClose={() => {}} />);
    expect(getUserMedia).toHaveBeenCalledWith({ video: { facingMode: 'environment' }, audio: false });
    view.rerender(<QrScanner open={false} onResult={() => {}} onClose={() => {}} />);
    await act(async () => grant(stream));
    await waitFor(() => expect(tracks.every((track) => track.stop.mock.calls.length > 0)).toBe(true));
  });

  it('refuses a file that is not an image with "wrong image format"', async () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    render(<QrScanner open onResult={() => {}} onClose={() => {}} />);
    const file = new File(['%PDF-1.7'], 'scan.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByTestId('qr-scanner-file'), { target: { files: [file] } });
    expect((await screen.findByTestId('qr-scanner-error')).textContent).toBe('图片格式错误');
  });

  it('closes with the close button', () => {
    vi.stubGlobal('navigator', { ...navigator, mediaDevices: undefined });
    const onClose = vi.fn();
    render(<QrScanner open onResult={() => {}} onClose={onClose} />);
    fireEvent.click(screen.getByTestId('qr-scanner-close'));
    expect(onClose).toHaveBeenCalledOnce();
  });
});

describe('decode helpers', () => {
  it('accepts images only, up to the size limit', () => {
    expect(isImageFile({ type: 'image/png', size: 1200 })).toBe(true);
    expect(isImageFile({ type: 'text/plain', size: 10 })).toBe(false);
    expect(isImageFile({ type: 'image/png', size: 0 })).toBe(false);
    expect(isImageFile({ type: 'image/png', size: 21 * 1024 * 1024 })).toBe(false);
  });

  it('maps ZXing exceptions to the translated failures', async () => {
    const { NotFoundException, ChecksumException } = await import('@zxing/library');
    expect(classifyDecodeError(new NotFoundException())).toBe('scanner.notFound');
    expect(classifyDecodeError(new ChecksumException())).toBe('scanner.notFound');
    expect(classifyDecodeError(new Error('canvas'))).toBe('scanner.failed');
    expect(classifyDecodeError('???')).toBe('scanner.failed');
  });
});
