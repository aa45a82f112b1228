// @vitest-environment jsdom
// (happy-dom breaks DOMPurify, so HTML bodies are tested under jsdom.)
import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DialogHost, dialog } from './index.ts';

describe('dialog HTML bodies', () => {
  it('alert and confirmHtml sanitise their HTML', async () => {
    render(<DialogHost />);
    let promise!: Promise<void>;
    await act(async () => {
      promise = dialog.alert({
        title: 'T',
        text: '<p>Hi <b>there</b></p><img src=x onerror="alert(1)"><script>alert(2)</script>',
      });
    });
    const body = await screen.findByTestId('dialog-body');
    expect(body.innerHTML).toContain('<b>there</b>');
    expect(body.innerHTML).not.toContain('onerror');
    expect(body.innerHTML).not.toContain('script');
    act(() => fireEvent.click(screen.getByTestId('dialog-confirm')));
    await promise;
    await act(async () => {
      promise = dialog.confirmHtml({ text: '<a href="javascript:alert(1)">x</a><i>ok</i>' });
    });
    const second = await screen.findByTestId('dialog-body');
    expect(second.innerHTML).toContain('<i>ok</i>');
    expect(second.innerHTML).not.toContain('javascript:');
    act(() => fireEvent.click(screen.getByTestId('dialog-confirm')));
    await promise;
  });
});
