import { describe, expect, it } from 'vitest';
import { answeredTickets, type ChatPage, type TicketPage, unreadChat } from './hub-counts.ts';

describe('mail hub unread counts (issue 30 item 6)', () => {
  it('counts the tickets support answered', () => {
    const page = {
      items: [{ state: 'reply_received' }, { state: 'pending_reply' }, { state: 'reply_received' }],
      nextCursor: null,
    } as unknown as TicketPage;
    expect(answeredTickets(page)).toBe(2);
  });

  it("counts support's chat messages after the user's read mark, not the user's own", () => {
    const page = {
      userReadId: '11',
      items: [
        { id: '10', author: 'operator' },
        { id: '11', author: 'operator' },
        { id: '12', author: 'user' },
        { id: '13', author: 'operator' },
        { id: '9007199254740993', author: 'operator' },
      ],
    } as unknown as ChatPage;
    expect(unreadChat(page)).toBe(2);
  });
});
