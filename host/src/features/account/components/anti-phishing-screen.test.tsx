import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const fetchMock = vi.hoisted(() => {
  const mock = vi.fn<(request: Request) => Promise<Response>>();
  globalThis.fetch = mock as unknown as typeof fetch;
  return mock;
});

const { json, renderAt } = await import('../test-helpers.tsx');
const { default: AntiPhishingScreen, maskPhrase, phraseRule } = await import('./anti-phishing-screen.tsx');

beforeEach(() => fetchMock.mockReset());
afterEach(cleanup);

describe('maskPhrase / phraseRule', () => {
  it('shows the ends only, and checks the server bounds', () => {
    expect(maskPhrase('Blue Kettle 42')).toBe('Bl••••••••••42');
    expect(maskPhrase('abcd')).toBe('a••d');
    expect(maskPhrase('蓝色水壶42')).toBe('蓝色••42');
    expect(phraseRule('abc')).toBe('antiPhishing.length');
    expect(phraseRule('x'.repeat(33))).toBe('antiPhishing.length');
    expect(phraseRule('<b>bold')).toBe('antiPhishing.charset');
    expect(phraseRule('Blue Kettle 42')).toBeNull();
  });
});

describe('AntiPhishingScreen', () => {
  it('shows the phrase masked, changes it after a fresh proof, and removes it', async () => {
    fetchMock.mockResolvedValueOnce(json(200, { phrase: 'Blue Kettle 42' }));
    renderAt('/antiPhishing', <AntiPhishingScreen />);
    expect((await screen.findByTestId('anti-phishing-value')).textContent).toBe('Bl••••••••••42');
    fireEvent.click(screen.getByTestId('anti-phishing-reveal'));
    expect(screen.getByTestId('anti-phishing-value').textContent).toBe('Blue Kettle 42');

    // Markup is refused before any request.
    fireEvent.change(screen.getByTestId('anti-phishing-input'), { target: { value: '<b>x</b>' } });
    fireEvent.click(screen.getByTestId('anti-phishing-save'));
    expect(await screen.findByTestId('field-error-phrase')).toBeTruthy();
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fireEvent.change(screen.getByTestId('anti-phishing-input'), { target: { value: 'Red Lamp 7' } });
    fetchMock.mockResolvedValueOnce(json(403, { code: 'REAUTH_REQUIRED', message: 'x' }));
    fireEvent.click(screen.getByTestId('anti-phishing-save'));
    const password = await screen.findByTestId('anti-phishing-reauth-password');
    fetchMock
      .mockResolvedValueOnce(new Response(null, { status: 204 }))
      .mockResolvedValueOnce(json(200, { phrase: 'Red Lamp 7' }));
    fireEvent.change(password, { target: { value: 'Passw0rd!' } });
    fireEvent.click(screen.getByTestId('anti-phishing-reauth-submit'));
    await waitFor(() => expect(screen.getByTestId('anti-phishing-value').textContent).toBe('Re•••••• 7'));
    expect(await fetchMock.mock.calls[3]?.[0].json()).toEqual({ phrase: 'Red Lamp 7' });

    fetchMock.mockResolvedValueOnce(json(200, { phrase: null }));
    fireEvent.click(screen.getByTestId('anti-phishing-remove'));
    await waitFor(() => expect(screen.queryByTestId('anti-phishing-value')).toBeNull());
    expect(await fetchMock.mock.calls[4]?.[0].json()).toEqual({ phrase: null });
  });
});
