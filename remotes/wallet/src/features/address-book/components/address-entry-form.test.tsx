import '../../../i18n.ts';
import { changeLanguage } from '@cw/shared-state/i18n';
import { resetToasts, toastStore } from '@cw/shared-ui/toast';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const USDT = '0xdAC17F958D2ee523a2206206994597C13D831ec7';
const R = '0x52908400098527886E0F7030069857D2E4169EE7';
let scannedText = '';

vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => vi.fn() }));
// The camera is not under test: "scanning" hands the field the text a QR code would.
vi.mock('@cw/shared-ui/qr-scanner', () => ({
  QrScanner: ({ open, onResult }: { open: boolean; onResult: (text: string) => void }) =>
    open ? (
      <button type="button" data-testid="fake-qr" onClick={() => onResult(scannedText)}>
        qr
      </button>
    ) : null,
}));
vi.mock('@cw/shared-state/catalogue', () => ({
  useCatalogue: () => ({
    view: {
      catalogue: {
        networks: [
          { code: 'ethereum', chainId: 1 },
          { code: 'bsc', chainId: 56 },
          { code: 'tron', chainId: null },
        ],
      },
      networkLabel: (code: string) => code,
    },
  }),
}));

const { AddressEntryForm } = await import('./address-entry-form.tsx');

async function scanInto(network: string, text: string) {
  await changeLanguage('en');
  scannedText = text;
  render(
    <QueryClientProvider client={new QueryClient()}>
      <Suspense fallback={null}>
        <AddressEntryForm
          initial={{ name: '', walletType: 'personal', network, address: '', remark: '' }}
          save={async () => undefined}
        />
      </Suspense>
    </QueryClientProvider>,
  );
  fireEvent.click(await screen.findByTestId('address-add-address-scan'));
  fireEvent.click(screen.getByTestId('fake-qr'));
  const wrapper = screen.getByTestId('address-add-address');
  const field = (wrapper.querySelector('textarea') ?? wrapper) as HTMLTextAreaElement;
  return { field, toasts: toastStore.getState().items.length };
}

describe('address book: a scanned QR is checked against the selected network (security review item 3)', () => {
  afterEach(() => {
    act(() => resetToasts());
    cleanup();
  });

  it('a payment request for chain 56 is refused while Ethereum is selected: nothing is filled in', async () => {
    const { field, toasts } = await scanInto('ethereum', `ethereum:${USDT}@56/transfer?address=${R}&uint256=1`);
    expect(field.value).toBe('');
    expect(toasts).toBe(1);
  });

  it('an EVM payment request is refused on TRON', async () => {
    const { field } = await scanInto('tron', `ethereum:${R}@1`);
    expect(field.value).toBe('');
  });

  it('a request on the selected chain fills in its recipient (any asset), never the token contract', async () => {
    const { field } = await scanInto('bsc', `ethereum:${USDT}@56/transfer?address=${R}&uint256=1`);
    expect(field.value).toBe(R);
  });
});
