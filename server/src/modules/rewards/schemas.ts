import { type Static, Type } from 'typebox';

const minorUnits = (description: string) =>
  Type.String({ pattern: '^(0|[1-9]\\d{0,77})$', description: `${description}; decimal string of minor units` });
const Day = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC day, YYYY-MM-DD' });
const DateTime = Type.String({ format: 'date-time' });
const Address = Type.String({ pattern: '^0x[0-9a-fA-F]{40}$' });

/** Records shown on a screen (newest first). */
export const RECORDS_MAX = 30;

export const CheckInContract = Type.Object(
  {
    network: Type.String(),
    chainId: Type.Integer(),
    address: Address,
  },
  { additionalProperties: false },
);

export const SignRecord = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    day: Day,
    network: Type.String(),
    address: Address,
    txHash: Type.String(),
    state: Type.Union([Type.Literal('seen'), Type.Literal('confirmed')], {
      description: 'seen: in a block, waiting for confirmations; confirmed: counts (its reward is booked)',
    }),
    asset: Type.String(),
    rewardMinor: minorUnits('Reward of this sign; 0 until confirmed'),
    signedAt: DateTime,
    claimable: Type.Boolean({ description: 'Booked, unclaimed and at least 24 hours old' }),
    claimed: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const Claim = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    asset: Type.String(),
    amountMinor: minorUnits('Claimed amount'),
    address: Address,
    claimedAt: DateTime,
    delivered: Type.Boolean(),
    deliveredAt: Type.Union([DateTime, Type.Null()]),
  },
  { additionalProperties: false },
);

export const SignStatus = Type.Object(
  {
    memberTag: Type.String({ pattern: '^0x[0-9a-f]{64}$', description: "The argument of the contract's checkIn" }),
    contracts: Type.Array(CheckInContract),
    today: Day,
    todayState: Type.Union([Type.Literal('none'), Type.Literal('seen'), Type.Literal('confirmed')]),
    nextDayAt: Type.String({ format: 'date-time', description: 'Start of the next UTC day' }),
    streak: Type.Integer({ minimum: 0 }),
    week: Type.Array(Type.Object({ day: Day, signed: Type.Boolean() }, { additionalProperties: false }), {
      description: 'The 7 days ending today',
    }),
    asset: Type.String(),
    scheduleMinor: Type.Array(minorUnits('Reward of the k-th streak day')),
    claimableMinor: minorUnits('Claimable now'),
    waitingMinor: minorUnits('Booked, younger than claimAfterHours'),
    claimedMinor: minorUnits('Claimed, not delivered yet'),
    claimMinMinor: minorUnits('Smallest claim'),
    deliveryStreakDays: Type.Integer(),
    claimAfterHours: Type.Integer({
      minimum: 0,
      description: "A check-in's reward is claimable this many hours after it",
    }),
    records: Type.Array(SignRecord),
    claims: Type.Array(Claim),
  },
  { additionalProperties: false },
);
export type SignStatus = Static<typeof SignStatus>;

export const ClaimBody = Type.Object(
  {
    signRecordId: Type.String({
      format: 'uuid',
      description:
        "One of your confirmed check-ins (a record's id): the claim's address is the wallet it came from, never one sent here",
    }),
  },
  { additionalProperties: false },
);

export const Delivery = Type.Object(
  { asset: Type.String(), deliveredMinor: minorUnits('Moved to the available balance'), claims: Type.Integer() },
  { additionalProperties: false },
);

const Prize = Type.Object(
  { weight: Type.Integer(), amountMinor: minorUnits('Prize') },
  { additionalProperties: false },
);

const Hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' });

export const Draw = Type.Object(
  {
    day: Day,
    n: Type.Integer({ minimum: 1, description: "The draw's place in the user's day (the allowance counts these)" }),
    prizeIndex: Type.Integer({ minimum: 0 }),
    asset: Type.String(),
    prizeMinor: minorUnits('Prize paid to the available balance; 0: no prize'),
    commitment: Type.String({ description: 'SHA-256 (hex) of the server seed, shown before the client seed was set' }),
    serverSeed: Type.Union([Hex64, Type.Null()], {
      description:
        'Revealed once you set a new client seed (a draw made before client seeds: after its day); null until then',
    }),
    clientSeed: Type.Union([Type.String(), Type.Null()], {
      description: 'Your client seed (null: an older draw on the day seed, message "userId:day:n")',
    }),
    nonce: Type.Integer({
      minimum: 1,
      description: 'Draw number on this seed pair: the message is "clientSeed:nonce"',
    }),
    prizeTableHash: Type.Union([Hex64, Type.Null()], { description: 'SHA-256 of prizeTable as canonical JSON' }),
    prizeTable: Type.Union([Type.Array(Prize), Type.Null()], { description: 'The prize table this draw ran against' }),
  },
  { additionalProperties: false },
);

export const Fairness = Type.Object(
  {
    userId: Type.String({
      format: 'uuid',
      description: 'Whose seeds these are (the browser keeps the client seeds it set per user, to check draws against)',
    }),
    active: Type.Union(
      [
        Type.Object(
          {
            commitment: Hex64,
            clientSeed: Type.String(),
            nonce: Type.Integer({ minimum: 0, description: 'Draws made on this pair' }),
            prizeTableHash: Type.Union([Hex64, Type.Null()], {
              description:
                'SHA-256 of the prize table the pair was set against; draws are refused (PRIZE_TABLE_CHANGED) once the prizes differ. null: set before tables were bound, set a new client seed',
            }),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'The seed pair your draws run on; null until you set a client seed' },
    ),
    nextCommitment: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'SHA-256 of the server seed your next client seed will pair with (fixed before you choose)',
    }),
  },
  { additionalProperties: false },
);

export const ClientSeedBody = Type.Object(
  {
    clientSeed: Type.String({ pattern: '^[!-~]{1,64}$', description: '1 to 64 printable characters, no spaces' }),
    commitment: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'The nextCommitment you were shown' }),
    prizeTableHash: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{64}$',
        description:
          'SHA-256 of the canonical prize table you were shown; refused with PRIZE_TABLE_CHANGED if the prizes differ now (absent: the current table)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ClientSeedChange = Type.Object(
  {
    ...Fairness.properties,
    revealed: Type.Union(
      [Type.Object({ commitment: Hex64, serverSeed: Hex64 }, { additionalProperties: false }), Type.Null()],
      { description: 'The retired server seed (null: there was none): verify its draws' },
    ),
  },
  { additionalProperties: false },
);

export const Post = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    title: Type.String(),
    category: Type.String(),
    publishAt: DateTime,
    liked: Type.Boolean(),
  },
  { additionalProperties: false },
);

export const LikesStatus = Type.Object(
  {
    day: Day,
    fairness: Fairness,
    likesToday: Type.Integer(),
    likesPerDraw: Type.Integer(),
    drawsPerDay: Type.Integer(),
    streak: Type.Integer(),
    streakDaysForDraw: Type.Integer(),
    earned: Type.Integer({ description: 'Draws earned today (likes and streak bonus)' }),
    used: Type.Integer(),
    asset: Type.String(),
    prizes: Type.Array(Prize),
    posts: Type.Array(Post),
    draws: Type.Array(Draw),
    pastDays: Type.Array(Day, { description: 'Earlier days you drew on, newest first' }),
  },
  { additionalProperties: false },
);

export const LotteryDay = Type.Object(
  {
    day: Day,
    userId: Type.String({ format: 'uuid', description: "The u of an older draw's message u:day:n" }),
    draws: Type.Array(Draw),
  },
  { additionalProperties: false },
);

export const DayParams = Type.Object({ day: Day }, { additionalProperties: false });
export const PostParams = Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false });

export const Invitation = Type.Object(
  {
    invitee: Type.String({ description: 'Masked user name' }),
    registeredAt: DateTime,
    status: Type.Union(
      [Type.Literal('registered'), Type.Literal('deposited'), Type.Literal('paid'), Type.Literal('forfeited')],
      {
        description:
          'deposited: a qualifying deposit was credited and the reward is held in pending rewards until releaseAt; paid: released to the available balance; forfeited: the invitee no longer held the qualifying amount then',
      },
    ),
    rewardAsset: Type.Union([Type.String(), Type.Null()]),
    rewardMinor: Type.Union([minorUnits('Reward booked for this invitee'), Type.Null()]),
    releaseAt: Type.Union([DateTime, Type.Null()], { description: 'When a held reward is released or forfeited' }),
  },
  { additionalProperties: false },
);

export const InviteStatus = Type.Object(
  {
    code: Type.String({ pattern: '^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$' }),
    asset: Type.String(),
    rewardMinor: minorUnits('Held in pending rewards when an invitee is credited a qualifying deposit'),
    qualifyingMinor: minorUnits('The smallest single deposit of `asset` that qualifies an invitee'),
    holdHours: Type.Integer({
      minimum: 0,
      description:
        'Hours the reward is held; released then if the available balance of the invitee never went below qualifyingMinor since the qualifying deposit, else forfeited',
    }),
    invitations: Type.Array(Invitation),
  },
  { additionalProperties: false },
);
