import { Type } from 'typebox';

const Minor = Type.String({ pattern: '^-?[0-9]+$', description: 'Integer of the smallest unit (decimals below)' });
const Amount = Type.Object(
  { asset: Type.String(), decimals: Type.Integer(), minor: Minor },
  {
    additionalProperties: false,
    description: 'An amount: minor units of asset (a coin, or COIN@network in chain units)',
  },
);
const Time = Type.String({ format: 'date-time' });
const Nullable = <T extends ReturnType<typeof Type.Object>>(t: T) => Type.Union([t, Type.Null()]);

const Reconcile = Type.Object(
  {
    ok: Type.Boolean(),
    accounts: Type.Integer(),
    transfers: Type.Integer(),
    entries: Type.Integer(),
    balanceMismatchCount: Type.Integer(),
    unbalancedTransferCount: Type.Integer(),
    brokenChains: Type.Integer(),
  },
  { additionalProperties: false },
);

const NullableTime = Type.Union([Time, Type.Null()]);
const NullableInt = Type.Union([Type.Integer(), Type.Null()]);

/** Issue 34: the WAL archive (dashboard/archive-figures.ts); `warnings` say which bound was crossed. */
const Archive = Type.Object(
  {
    state: Type.Union([Type.Literal('ok'), Type.Literal('warning'), Type.Literal('off'), Type.Literal('unknown')]),
    warnings: Type.Array(
      Type.Union([
        Type.Literal('archive_behind'),
        Type.Literal('archive_failing'),
        Type.Literal('s3_behind'),
        Type.Literal('base_backup_old'),
      ]),
    ),
    warnAfterSeconds: Type.Integer(),
    baseBackupWarnAfterHours: Type.Integer(),
    lastArchivedWal: Type.Union([Type.String(), Type.Null()]),
    lastArchivedAt: NullableTime,
    lastArchivedAgeSeconds: NullableInt,
    waitingSegments: NullableInt,
    failedCount: NullableInt,
    lastFailedAt: NullableTime,
    lastBaseBackup: Nullable(
      Type.Object({ id: Type.String(), finishedAt: Time, ageSeconds: NullableInt }, { additionalProperties: false }),
    ),
    s3: Nullable(
      Type.Object(
        {
          waitingSegments: Type.Integer(),
          lastSuccessAt: NullableTime,
          lagSeconds: NullableInt,
          failedRuns: Type.Integer(),
          lastError: Type.Union([Type.String(), Type.Null()]),
          updatedAt: Time,
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false, description: 'WAL archive health (the pg_archive_* gauges of /metrics)' },
);

export const Dashboard = Type.Object(
  {
    generatedAt: Time,
    check: Type.Object(
      {
        state: Type.Union([Type.Literal('ok'), Type.Literal('mismatch'), Type.Literal('never')]),
        finishedAt: Type.Union([Time, Type.Null()]),
        requestedBy: Type.Union([Type.String(), Type.Null()]),
        durationMs: Type.Union([Type.Integer(), Type.Null()]),
        reconcile: Nullable(Reconcile),
        custodyOnChain: Type.Array(
          Type.Object(
            {
              network: Type.String(),
              skipped: Type.Union([Type.String(), Type.Null()]),
              hot: Type.Array(
                Type.Object(
                  { asset: Type.String(), decimals: Type.Integer(), minor: Minor, bookMinor: Minor },
                  { additionalProperties: false },
                ),
              ),
            },
            { additionalProperties: false },
          ),
        ),
        pending: Type.Union([Type.Literal('requested'), Type.Literal('running'), Type.Null()]),
      },
      { additionalProperties: false },
    ),
    proofOfLiabilities: Nullable(
      Type.Object(
        {
          id: Type.String(),
          createdAt: Time,
          rootHash: Type.String(),
          users: Type.Integer(),
          totals: Type.Array(Amount),
        },
        { additionalProperties: false },
      ),
    ),
    custody: Type.Object(
      {
        perNetwork: Type.Array(
          Type.Object(
            { network: Type.String(), coin: Type.String(), hotWallet: Amount, depositAddresses: Amount },
            { additionalProperties: false },
          ),
        ),
        perCoin: Type.Array(
          Type.Object(
            {
              coin: Type.String(),
              custody: Amount,
              liabilities: Type.Union([Amount, Type.Null()]),
              covered: Type.Union([Type.Boolean(), Type.Null()]),
            },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    stuckWithdrawals: Type.Object(
      {
        count: Type.Integer(),
        stuckAfterMinutes: Type.Integer(),
        oldest: Type.Array(
          Type.Object(
            { id: Type.String(), network: Type.String(), state: Type.String(), since: Time, amount: Amount },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    alerts: Type.Object(
      {
        reorgCount: Type.Integer(),
        reorgs: Type.Array(
          Type.Object(
            {
              id: Type.String(),
              network: Type.String(),
              forkBlock: Type.String(),
              deposits: Type.Integer(),
              createdAt: Time,
            },
            { additionalProperties: false },
          ),
        ),
        chainCount: Type.Integer(),
        chain: Type.Array(
          Type.Object(
            { id: Type.String(), network: Type.String(), kind: Type.String(), detail: Type.String(), createdAt: Time },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
    rewardsPool: Type.Array(Amount),
    liquidity: Type.Array(
      Type.Object(
        {
          asset: Type.String(),
          decimals: Type.Integer(),
          minor: Minor,
          lanes: Type.Array(Type.Object({ lane: Type.Integer(), minor: Minor }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
    ),
    archive: Archive,
  },
  { additionalProperties: false },
);

export const CheckRequested = Type.Object(
  { pending: Type.Union([Type.Literal('requested'), Type.Literal('running')]) },
  { additionalProperties: false },
);
