import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cancelAllDialogs, DialogCancelled, DialogHost, dialog, dialogStore, isDialogCancelled } from './index.ts';

async function open<T>(start: () => Promise<T>) {
  let promise!: Promise<T>;
  await act(async () => {
    promise = start();
    promise.catch(() => {});
  });
  screen.getByTestId('dialog');
  // Wrapped: an async function returning the promise itself would wait for it.
  return { promise };
}

describe('dialog', () => {
  beforeEach(() => {
    render(<DialogHost />);
  });
  afterEach(() => {
    act(() => cancelAllDialogs());
  });

  it('confirm resolves on confirm', async () => {
    const { promise } = await open(() => dialog.confirm({ text: 'Sure?' }));
    expect(screen.getByTestId('dialog-body').textContent).toBe('Sure?');
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.dataset.testid)).toEqual(['dialog-cancel', 'dialog-confirm']);
    expect(screen.getByTestId('dialog-cancel').textContent).toBe('取消');
    expect(screen.getByTestId('dialog-confirm').textContent).toBe('确定');
    act(() => fireEvent.click(screen.getByTestId('dialog-confirm')));
    await expect(promise).resolves.toBeUndefined();
    expect(screen.queryByTestId('dialog')).toBeNull();
  });

  it('cancel rejects with DialogCancelled', async () => {
    const { promise } = await open(() =>
      dialog.confirm({ title: 'T', titleCenter: true, text: 'x', cancelButtonText: 'No', confirmButtonText: 'Yes' }),
    );
    expect(screen.getByText('T').className).toContain('cw-dialog__title--center');
    expect(screen.getByTestId('dialog-cancel').textContent).toBe('No');
    act(() => fireEvent.click(screen.getByTestId('dialog-cancel')));
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DialogCancelled);
    expect(isDialogCancelled(error) && error.reason).toBe('cancel');
  });

  it('the backdrop closes (rejects); a tap inside does not', async () => {
    const { promise } = await open(() => dialog.confirm({ text: 'inside' }));
    act(() => fireEvent.click(screen.getByTestId('dialog-body')));
    act(() => fireEvent.click(screen.getByTestId('dialog')));
    expect(screen.getByTestId('dialog')).toBeTruthy();
    act(() => fireEvent.click(screen.getByTestId('dialog-backdrop')));
    await expect(promise).rejects.toMatchObject({ name: 'DialogCancelled', reason: 'backdrop' });
    expect(screen.queryByTestId('dialog-backdrop')).toBeNull();
  });

  it('confirmHtml puts confirm first and honours left/right texts', async () => {
    const { promise } = await open(() =>
      dialog.confirmHtml({ text: 'plain body', leftText: 'Go', rightText: 'Stop', center: true }),
    );
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => [b.dataset.testid, b.textContent])).toEqual([
      ['dialog-confirm', 'Go'],
      ['dialog-cancel', 'Stop'],
    ]);
    expect(screen.getByTestId('dialog-body').className).toContain('cw-dialog__body--center');
    act(() => fireEvent.click(screen.getByTestId('dialog-confirm')));
    await expect(promise).resolves.toBeUndefined();
  });

  it('alert has a close icon that rejects, and a confirm that resolves', async () => {
    const { promise: first } = await open(() => dialog.alert({ title: 'Notice', text: 'Hello' }));
    act(() => fireEvent.click(screen.getByTestId('dialog-close')));
    await expect(first).rejects.toMatchObject({ reason: 'close' });
    const { promise: second } = await open(() => dialog.alert({ title: 'Notice', text: 'Hello' }));
    act(() => fireEvent.click(screen.getByTestId('dialog-confirm')));
    await expect(second).resolves.toBeUndefined();
  });

  it('input resolves with the typed value and scrolls the page to the top', async () => {
    const scrollable = document.createElement('div');
    scrollable.setAttribute('data-scrollable', '');
    document.body.append(scrollable);
    scrollable.scrollTop = 120;
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const { promise } = await open(() => dialog.input({ title: 'Name', text: 'Enter it', tips: 'a tip', value: 'a' }));
    const input = screen.getByTestId('dialog-input') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.placeholder).toBe('请输入');
    expect(screen.getByText('a tip')).toBeTruthy();
    fireEvent.change(input, { target: { value: 'abc' } });
    act(() => fireEvent.click(screen.getByTestId('dialog-confirm')));
    await expect(promise).resolves.toBe('abc');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    expect(scrollable.scrollTop).toBe(0);
    scrollable.remove();
  });

  it('input cancel rejects and also scrolls to the top', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    const { promise } = await open(() => dialog.input({ inputType: 'password', placeholder: 'PIN' }));
    const input = screen.getByTestId('dialog-input') as HTMLInputElement;
    expect(input.type).toBe('password');
    expect(input.placeholder).toBe('PIN');
    fireEvent.click(screen.getByTestId('password-reveal'));
    expect(input.type).toBe('text');
    act(() => fireEvent.click(screen.getByTestId('dialog-cancel')));
    await expect(promise).rejects.toBeInstanceOf(DialogCancelled);
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });

  it('Escape cancels the top dialog', async () => {
    const { promise } = await open(() => dialog.confirm({ text: 'esc' }));
    act(() => fireEvent.keyDown(window, { key: 'Escape' }));
    await expect(promise).rejects.toMatchObject({ reason: 'escape' });
    expect(dialogStore.getState().dialogs).toEqual([]);
  });
});
