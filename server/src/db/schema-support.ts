import type { Generated } from 'kysely';

/**
 * Tables of uploads and support tickets (migration 0019), beside schema.ts so neither file grows past
 * its size; `Database` there extends `SupportDatabase`.
 */
export interface SupportDatabase {
  uploads: UploadsTable;
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  chat_conversations: ChatConversationsTable;
  chat_messages: ChatMessagesTable;
  chat_streams: ChatStreamsTable;
}

/** An open chat event stream (migration 0050): counted per holder and per session, renewed by heartbeats. */
export interface ChatStreamsTable {
  id: Generated<string>;
  /** `user:<uuid>` or `operator:<uuid>`. */
  holder: string;
  /** The session that opened it (`user:<uuid>` or `operator:<uuid>` of the session row). */
  session: string;
  opened_at: Date;
  seen_at: Date;
}

export type UploadPlace = 'ticket' | 'chat' | 'message';
export type UploadKind = 'image' | 'file';

/** A checked (and, for images, re-encoded) file; objects are content-addressed in the store. */
export interface UploadsTable {
  id: string;
  owner_user_id: string | null;
  owner_operator_id: string | null;
  /** sha-256 (hex) of a visitor's upload token (leave-a-message without an account). */
  owner_visitor: string | null;
  /** Kept for visitors' uploads: their hourly limit is per IP. */
  uploader_ip: string | null;
  place: UploadPlace;
  kind: UploadKind;
  media_type: string;
  name: string;
  size_bytes: string;
  width: number | null;
  height: number | null;
  /** The object shown in the app: the re-encoded image, or an SVG's PNG rendering. */
  display_key: string | null;
  /** The object downloaded as it was sent: a sanitised SVG or a non-image file. */
  original_key: string | null;
  /** `ticket-message:<uuid>` or `chat-message:<id>` once attached; an upload is attached once. */
  attached_to: string | null;
  /** Position among the files of its message, as the sender ordered them. */
  attach_order: number | null;
  /** The user whose ticket or chat holds it: may read it even when an operator sent it. */
  thread_user_id: string | null;
  created_at: Date;
}

export type TicketState = 'pending_reply' | 'reply_received';

export interface TicketsTable {
  id: Generated<string>;
  user_id: string;
  email: string;
  tx_ref: string | null;
  state: TicketState;
  created_at: Date;
  updated_at: Date;
}

export interface TicketMessagesTable {
  id: Generated<string>;
  ticket_id: string;
  author: 'user' | 'operator';
  operator_id: string | null;
  text: string;
  created_at: Date;
}

/** One user's conversation with support (migration 0020). Read marks are message ids. */
export interface ChatConversationsTable {
  id: Generated<string>;
  user_id: string;
  created_at: Date;
  last_message_at: Date | null;
  user_read_id: Generated<string>;
  operator_read_id: Generated<string>;
  /** Until when the user counts as connected (renewed by the open event stream). */
  user_online_until: Date | null;
  /** When an operator's reply was last e-mailed (the user was not connected). */
  emailed_at: Date | null;
}

export interface ChatMessagesTable {
  /** bigint identity: the event id of the stream. */
  id: Generated<string>;
  conversation_id: string;
  author: 'user' | 'operator';
  operator_id: string | null;
  client_id: string;
  text: string;
  upload_id: string | null;
  created_at: Date;
}
