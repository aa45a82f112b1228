import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

const navigate = vi.fn();
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => navigate }));

const { HubList } = await import('./index.ts');

describe('HubList', () => {
  it('opens an available entry and marks the others coming soon', () => {
    render(
      <HubList
        testId="demo-hub"
        title="Demo"
        comingSoon="Soon"
        build="Build 1"
        entries={[
          { key: 'open', path: '/open', title: 'Open', description: 'Ready', available: true },
          { key: 'later', path: '/later', title: 'Later', description: 'Not yet', available: false },
        ]}
      />,
    );
    expect(screen.getByTestId('demo-hub')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Demo' })).toBeTruthy();
    expect(screen.getByTestId('build-id').textContent).toBe('Build 1');
    expect(screen.getAllByText('Soon')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('hub-entry-later'));
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('hub-entry-open'));
    expect(navigate).toHaveBeenCalledWith('/open');
  });
});
