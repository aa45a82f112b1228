import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../api/chat.ts';
import { lastId, mergeConversation } from './merge.ts';

const message = (id: string, clientId = `c${id}`): ChatMessage => ({
  id,
  clientId,
  conversationId: '00000000-0000-4000-8000-000000000000',
  author: 'user',
  text: `#${id}`,
  attachment: null,
  createdAt: '2030-01-01T00:00:00.000Z',
});

describe('mergeConversation', () => {
  it('shows each message once in id order (numerically) and drops pending ones the server confirmed', () => {
    const history = [message('9'), message('10')];
    const live = [message('10'), message('11', 'mine')];
    const merged = mergeConversation(
      [history, live],
      [
        { clientId: 'mine', text: '#11', status: 'sending' },
        { clientId: 'other', text: 'still going', status: 'failed' },
      ],
    );
    expect(merged.messages.map((m) => m.id)).toEqual(['9', '10', '11']);
    expect(merged.pending.map((p) => p.clientId)).toEqual(['other']);
    expect(lastId(merged.messages)).toBe('11');
    expect(lastId([])).toBeNull();
  });
});
