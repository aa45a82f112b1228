import type { Generated } from 'kysely';

/**
 * Tables of the rewards programme (migration 0022), beside schema.ts so neither file grows past its
 * size; `Database` there extends `RewardsDatabase`. Amounts are NUMERIC(78,0) read as strings.
 */
export interface RewardsDatabase {
  member_tags: MemberTagsTable;
  sign_records: SignRecordsTable;
  reward_claims: RewardClaimsTable;
  announcement_likes: AnnouncementLikesTable;
  lottery_seeds: LotterySeedsTable;
  lottery_draws: LotteryDrawsTable;
  lottery_server_seeds: LotteryServerSeedsTable;
  invite_codes: InviteCodesTable;
  invitations: InvitationsTable;
  /** Development only (DEV_CLOCK, migration 0023): how far the server's clock is moved forward. */
  dev_clock: { id: number; offset_ms: string };
}

/** The random bytes32 a user's check-ins carry (hex, lower case): attributes them without a signature. */
export interface MemberTagsTable {
  user_id: string;
  tag: string;
  created_at: Date;
}

/** seen: on chain, not yet chosen; confirmed: the day's check-in; superseded: another of the day's was chosen. */
export type SignState = 'seen' | 'confirmed' | 'superseded';

/** A `CheckedIn` event attributed to a user: seen in a block, then confirmed, then its reward booked. */
export interface SignRecordsTable {
  id: Generated<string>;
  user_id: string;
  /** UTC day of the check-in (the contract's day), 'YYYY-MM-DD'. */
  day: string;
  network: string;
  address: string;
  tx_hash: string;
  log_index: number;
  block_number: string;
  block_hash: string;
  state: SignState;
  asset: string;
  reward_minor: string;
  seen_at: Date;
  confirmed_at: Date | null;
  booked_at: Date | null;
  claim_id: string | null;
}

export interface RewardClaimsTable {
  id: Generated<string>;
  user_id: string;
  asset: string;
  amount_minor: string;
  /** The connected wallet the claim was made from (one the user has checked in with). */
  address: string;
  claimed_at: Date;
  delivered_at: Date | null;
  delivery_transfer_id: string | null;
}

export interface AnnouncementLikesTable {
  user_id: string;
  announcement_id: string;
  day: string;
  created_at: Date;
}

export interface LotterySeedsTable {
  day: string;
  seed: Buffer;
  /** SHA-256 (hex) of the seed, shown before the day's first draw. */
  commitment: string;
  created_at: Date;
}

export interface LotteryDrawsTable {
  day: string;
  user_id: string;
  n: number;
  prize_index: number;
  asset: string;
  prize_minor: string;
  created_at: Date;
  /** The user's server seed this draw ran on (migration 0063); null: an older draw on the day seed. */
  server_seed_id: string | null;
  /** 1, 2, ... per server seed. */
  nonce: number | null;
  /** The prize table drawn against, canonical JSON (`canonicalPrizeTable`). */
  prize_table: string | null;
}

/** A user's committed server seeds (migration 0063): next (no client seed), active, retired (revealed). */
export interface LotteryServerSeedsTable {
  id: Generated<string>;
  user_id: string;
  seed: Buffer;
  commitment: string;
  created_at: Date;
  client_seed: string | null;
  activated_at: Date | null;
  retired_at: Date | null;
  /** SHA-256 of the canonical prize table the pair was chosen against (migration 0064); write-once. */
  prize_table_hash: string | null;
}

export interface InviteCodesTable {
  user_id: string;
  code: string;
  created_at: Date;
}

export interface InvitationsTable {
  invitee_id: string;
  inviter_id: string;
  created_at: Date;
  first_deposit_at: Date | null;
  reward_asset: string | null;
  reward_minor: string | null;
  booked_at: Date | null;
  /** The deposit that qualified the invitee, and the qualifying amount then (migration 0062). */
  qualifying_deposit_id: string | null;
  qualifying_minor: string | null;
  /** Held in the inviter's pending rewards until then; released or forfeited once (never both). */
  release_at: Date | null;
  released_at: Date | null;
  forfeited_at: Date | null;
}
