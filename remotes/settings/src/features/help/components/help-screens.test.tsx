import { fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanupScreen, renderScreen, resetSettings } from '../../../lib/test-helpers.tsx';

const navigate = vi.fn();
let search = new URLSearchParams();
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => navigate, useSearchParams: () => [search] }));

const { default: HelpCenterScreen } = await import('./help-center-screen.tsx');
const { default: FunctionDetailScreen } = await import('./function-detail-screen.tsx');

describe('help centre', () => {
  beforeEach(() => resetSettings('en'));
  afterEach(cleanupScreen);

  it('lists the topics and opens their details', async () => {
    renderScreen(<HelpCenterScreen />);
    expect(await screen.findByRole('heading', { name: 'Help centre' })).toBeTruthy();
    for (const topic of ['deposit', 'withdraw', 'fund-password', 'convert', 'rewards']) {
      expect(screen.getByTestId(`help-topic-${topic}`)).toBeTruthy();
    }
    fireEvent.click(screen.getByTestId('help-topic-fund-password'));
    expect(navigate).toHaveBeenCalledWith('/funcDescDetail?topic=fund-password');
  });

  it('shows a topic in the current language', async () => {
    await resetSettings('es');
    search = new URLSearchParams('topic=fund-password');
    renderScreen(<FunctionDetailScreen />);
    expect(await screen.findByRole('heading', { name: 'Contraseña de fondos' })).toBeTruthy();
    expect(screen.getByText(/se pide en cada retiro/)).toBeTruthy();
  });

  it('says so when the topic does not exist', async () => {
    search = new URLSearchParams('topic=nope');
    renderScreen(<FunctionDetailScreen />);
    expect((await screen.findByTestId('func-desc-not-found')).textContent).toContain('This topic does not exist');
  });
});
