import { render, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

const state: { data: unknown[] | undefined } = { data: undefined };
vi.mock('@cw/shared-state/security', () => ({ useOutflowLocks: () => ({ data: state.data }) }));

const { LockBanner } = await import('./lock-banner.tsx');

const until = '2026-11-28T09:30:00.000Z';
const local = new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(until));

describe('LockBanner', () => {
  beforeEach(() => {
    state.data = undefined;
  });

  it('shows nothing before the answer or while no lock holds', () => {
    const { container, rerender } = render(<LockBanner />);
    expect(container.textContent).toBe('');
    state.data = [];
    rerender(<LockBanner />);
    expect(screen.queryByTestId('lock-banner')).toBeNull();
  });

  it('says why outflows are held (the event) and until when, in local time', () => {
    state.data = [{ kind: 'outflow_hold', reason: 'passkey_added', since: null, until }];
    render(<LockBanner testId="send-lock-banner" />);
    expect(screen.getByTestId('send-lock-banner').textContent).toContain('提币和转账暂时冻结');
    expect(screen.getByTestId('lock-hold').textContent).toBe(`至 ${local}： 已添加通行密钥。`);
  });

  it('an event it does not know reads as a security change; a freeze and a reorg hold have their own lines', () => {
    state.data = [
      { kind: 'account_frozen', reason: null, since: until, until: null },
      { kind: 'reorg_hold', reason: null, since: null, until: null },
      { kind: 'outflow_hold', reason: 'some_future_event', since: null, until },
    ];
    render(<LockBanner />);
    expect(screen.getByTestId('lock-frozen').textContent).toContain('账户已冻结');
    expect(screen.getByTestId('lock-reorg').textContent).toContain('深度重组');
    expect(screen.getByTestId('lock-hold').textContent).toContain('安全设置已更改');
  });
});
