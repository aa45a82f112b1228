import { useSession } from '@cw/shared-state/session';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { clearQueriesOnUserChange } from './user-caches.ts';

const user = (id: string) => ({
  id,
  username: id,
  nickname: null,
  email: `${id}@example.com`,
  emailMasked: 'x***@example.com',
  country: 'ES',
  hasFundPassword: false,
  createdAt: '2026-01-01T00:00:00Z',
});

describe('clearQueriesOnUserChange (issue 40 item 1)', () => {
  const client = new QueryClient();
  const stop = clearQueriesOnUserChange(client);
  afterEach(() => {
    client.clear();
    useSession.setState({ status: 'unknown', me: null });
  });

  it("a session that ends without the logout button (a 401) leaves none of A's queries", () => {
    useSession.getState().signedIn(user('a'));
    client.setQueryData(['wallet', 'deposit-address', 'a', 'USDT', 'ethereum'], { address: '0xA' });
    useSession.getState().signedOut();
    expect(client.getQueryCache().getAll()).toEqual([]);
  });

  it('another user signing in clears; the same user read again does not', () => {
    useSession.getState().signedIn(user('a'));
    client.setQueryData(['rewards', 'sign', 'a'], { memberTag: '0x01' });
    useSession.getState().signedIn(user('a'));
    expect(client.getQueryCache().getAll()).toHaveLength(1);
    useSession.getState().signedIn(user('b'));
    expect(client.getQueryCache().getAll()).toEqual([]);
  });

  it('stops when asked', () => {
    stop();
    useSession.getState().signedIn(user('a'));
    client.setQueryData(['x'], 1);
    useSession.getState().signedOut();
    expect(client.getQueryCache().getAll()).toHaveLength(1);
  });
});
