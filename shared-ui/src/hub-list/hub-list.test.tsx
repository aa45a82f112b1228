import { currentLanguage, i18n } from '@cw/shared-state/i18n';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const navigate = vi.fn();
vi.mock('@cw/shared-state/router', () => ({ useNavigate: () => navigate }));

const { HubList } = await import('./index.ts');

const demo = {
  hub: { title: 'Demo', comingSoon: 'Soon', build: 'Build {{build}}' },
  entries: {
    open: { title: 'Open', description: 'Ready' },
    later: { title: 'Later', description: 'Not yet' },
  },
};

// The app's own i18n instance, not a second one made global: test files may share a worker (isolate: false).
beforeAll(() => i18n.addResourceBundle(currentLanguage(), 'demo', demo));
afterAll(() => i18n.removeResourceBundle(currentLanguage(), 'demo'));

describe('HubList', () => {
  it("shows the remote's texts, opens an available entry and marks the others coming soon", () => {
    render(
      <HubList
        namespace="demo"
        testId="demo-hub"
        entries={[
          { key: 'open', path: '/open' },
          { key: 'later', path: '/later' },
        ]}
        available={new Set(['/open'])}
        buildId="abc"
      />,
    );
    expect(screen.getByTestId('demo-hub')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Demo' })).toBeTruthy();
    // The build id stays in the page for deploy checks, hidden: no version line on a user's screen.
    expect(screen.getByTestId('build-id').textContent).toBe('abc');
    expect(screen.getByTestId('build-id').hidden).toBe(true);
    expect(screen.getByTestId('demo-hub').dataset.buildId).toBe('abc');
    expect(screen.queryByText('Build abc')).toBeNull();
    expect(screen.getByTestId('hub-entry-later').textContent).toContain('Not yet');
    expect(screen.getAllByText('Soon')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('hub-entry-later'));
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('hub-entry-open'));
    expect(navigate).toHaveBeenCalledWith('/open');
  });

  it("shows an entry's state today under its description and badges its unread count", () => {
    render(
      <HubList
        namespace="demo"
        testId="demo-hub"
        entries={[
          { key: 'open', path: '/open' },
          { key: 'later', path: '/later' },
        ]}
        available={new Set(['/open'])}
        buildId="abc"
        status={{ open: 'Streak: 3 days' }}
        counts={{ open: 120, later: 4 }}
      />,
    );
    expect(screen.getByTestId('hub-entry-open').textContent).toContain('Ready');
    expect(screen.getByTestId('hub-status-open').textContent).toBe('Streak: 3 days');
    expect(screen.queryByTestId('hub-status-later')).toBeNull();
    expect(screen.getByTestId('hub-count-open').textContent).toBe('99+');
    // A coming-soon entry says so instead of a count.
    expect(screen.queryByTestId('hub-count-later')).toBeNull();
  });
});
