import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetToasts, toastStore } from '../toast/index.ts';
import { checkFiles, formatBytes, type UploadItem, UploadList } from './index.ts';

function png(name = 'a.png', size = 10): File {
  const file = new File(['x'], name, { type: 'image/png' });
  Object.defineProperty(file, 'size', { value: size });
  return file;
}
const pdf = new File(['%PDF'], 'a.pdf', { type: 'application/pdf' });

describe('checkFiles', () => {
  it('accepts images only, with unlimited size and count by default', () => {
    const many = Array.from({ length: 20 }, (_, i) => png(`${i}.png`, 50_000_000));
    expect(checkFiles([...many, pdf], 100).accepted).toHaveLength(20);
    expect(checkFiles([pdf], 0).rejected).toEqual([{ file: pdf, reason: 'type' }]);
  });

  it('applies maxSize and maxCount when given', () => {
    const big = png('big.png', 2048);
    const result = checkFiles([png('1.png'), big, png('2.png'), png('3.png')], 3, { maxSize: 1024, maxCount: 5 });
    expect(result.accepted.map((f) => f.name)).toEqual(['1.png', '2.png']);
    expect(result.rejected.map((r) => r.reason)).toEqual(['size', 'count']);
    expect(checkFiles([pdf], 0, { accept: '.pdf' }).accepted).toEqual([pdf]);
  });

  it('formats sizes', () => {
    expect([formatBytes(512), formatBytes(2048), formatBytes(1536 * 1024)]).toEqual(['512 B', '2 KB', '1.5 MB']);
  });
});

describe('UploadList', () => {
  afterEach(() => resetToasts());

  it('shows uploading with a spinner and failed with a mark and message', () => {
    const items: UploadItem[] = [
      { file: png('up.png'), status: 'uploading', objectUrl: 'blob:1' },
      { file: png('bad.png'), status: 'failed', message: 'Too blurry', objectUrl: 'blob:2' },
      { file: png('ok.png'), status: 'failed', objectUrl: 'blob:3' },
      { file: png('done.png'), status: 'done', objectUrl: 'blob:4', content: '/files/4' },
    ];
    const onRemove = vi.fn();
    render(<UploadList items={items} onAdd={() => {}} onRemove={onRemove} />);
    const rendered = screen.getAllByTestId('upload-item');
    expect(rendered.map((el) => el.dataset.status)).toEqual(['uploading', 'failed', 'failed', 'done']);
    expect(rendered[0]?.querySelector('[role="status"]')?.getAttribute('aria-label')).toBe('上传中…');
    expect(screen.getAllByRole('alert').map((el) => el.textContent)).toEqual(['Too blurry', '上传失败']);
    fireEvent.click(screen.getAllByTestId('upload-remove')[1] as HTMLElement);
    expect(onRemove).toHaveBeenCalledWith(1);
  });

  it('adds picked images and rejects other files with a translated message', () => {
    const onAdd = vi.fn();
    render(<UploadList items={[]} onAdd={onAdd} maxCount={1} />);
    const input = screen.getByTestId('upload-input') as HTMLInputElement;
    expect(input.accept).toBe('image/*');
    fireEvent.change(input, { target: { files: [pdf] } });
    expect(onAdd).not.toHaveBeenCalled();
    expect(toastStore.getState().items).toMatchObject([{ type: 'fail', message: '请选择图片文件' }]);
    const image = png();
    fireEvent.change(input, { target: { files: [image, png('b.png')] } });
    expect(onAdd).toHaveBeenCalledWith([image]);
    expect(toastStore.getState().items.at(-1)).toMatchObject({ message: '最多上传 1 张' });
  });

  it('hides the add tile when full', () => {
    render(<UploadList items={[{ file: png(), status: 'done' }]} onAdd={() => {}} maxCount={1} />);
    expect(screen.queryByTestId('upload-input')).toBeNull();
  });
});
