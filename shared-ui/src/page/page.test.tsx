import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const navigate = vi.fn();
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => navigate }));

const { Page, PageLink } = await import('./index.ts');

describe('Page', () => {
  it('shows the title and goes back through the router facade', () => {
    render(
      <Page title="Deposit" right={<span>Records</span>}>
        <p>content</p>
      </Page>,
    );
    expect(screen.getByRole('heading', { name: 'Deposit' })).toBeTruthy();
    expect(screen.getByText('Records')).toBeTruthy();
    expect(screen.getByText('content')).toBeTruthy();
    const back = screen.getByTestId('page-back');
    expect(back.getAttribute('aria-label')).toBe('返回');
    fireEvent.click(back);
    expect(navigate).toHaveBeenCalledWith(-1);
  });

  it('can hide the back arrow or replace its action', () => {
    const onBack = vi.fn();
    const { rerender } = render(<Page title="Home" back={false} />);
    expect(screen.queryByTestId('page-back')).toBeNull();
    rerender(<Page title="Home" onBack={onBack} />);
    fireEvent.click(screen.getByTestId('page-back'));
    expect(onBack).toHaveBeenCalled();
  });

  it('puts a link action on the right of the nav bar', () => {
    const onClick = vi.fn();
    render(<Page title="Convert" right={<PageLink onClick={onClick}>History</PageLink>} />);
    const link = screen.getByRole('button', { name: 'History' });
    expect(link.className).toContain('cw-page__link');
    expect(link.getAttribute('type')).toBe('button');
    fireEvent.click(link);
    expect(onClick).toHaveBeenCalledOnce();
  });
});
