import { formatAmount } from '@cw/shared-state/money';
import type { ReviewItem } from './withdrawals-api.ts';

/** The console speaks English; amounts are written as the app writes them in English (shared-state/money). */
export const amountOf = (minor: string, item: Pick<ReviewItem, 'decimals' | 'coin'>) =>
  `${formatAmount(minor, item.decimals, 'en')} ${item.coin}`;

export const usdOf = (cents: string | null) => (cents === null ? 'no fresh price' : `$${formatAmount(cents, 2, 'en')}`);

const HOUR = 3_600_000;
/** "5 h" / "3 d": how long ago `iso` was. */
export function ageOf(iso: string, now = Date.now()): string {
  const ms = Math.max(0, now - new Date(iso).getTime());
  return ms < 48 * HOUR ? `${Math.floor(ms / HOUR)} h` : `${Math.floor(ms / (24 * HOUR))} d`;
}

/** One line per signal; `flag` marks the ones a reviewer should look at twice. The server computed them all. */
export function signalLines(item: ReviewItem): { text: string; flag: boolean; key: string }[] {
  const s = item.signals;
  const lines: { text: string; flag: boolean; key: string }[] = [];
  const add = (key: string, text: string, flag: boolean) => lines.push({ key, text, flag });
  const stop = s.complianceStop;
  if (stop)
    add(
      'compliance',
      `Compliance ${stop.kind} by ${stop.operator ?? 'unknown'} ${ageOf(stop.since)} ago: ${stop.reason} (approval refused until lifted)`,
      true,
    );
  add('first', s.firstWithdrawal ? 'First withdrawal' : `${s.paidWithdrawalsBefore} paid before`, s.firstWithdrawal);
  add(
    'address',
    `${s.addressPaidBefore ? 'Address paid before' : 'New address'}${
      s.addressBookSavedAt ? ` (in address book ${ageOf(s.addressBookSavedAt)})` : ' (not in address book)'
    }`,
    !s.addressPaidBefore,
  );
  if (s.addressOtherUsers > 0)
    add('others', `Address used by ${s.addressOtherUsers}${s.addressOtherUsers >= 100 ? '+' : ''} other user(s)`, true);
  if (s.securityChange)
    add('security', `Security change: ${s.securityChange.event} ${ageOf(s.securityChange.at)} ago`, true);
  if (s.newDeviceAt) add('device', `New device ${ageOf(s.newDeviceAt)} ago`, true);
  add(
    'history',
    `30 d: withdrawn ${amountOf(s.withdrawn30dMinor, item)}, deposited ${amountOf(s.deposited30dMinor, item)}`,
    BigInt(item.amountMinor) > BigInt(s.deposited30dMinor),
  );
  const days = Math.floor((Date.now() - new Date(s.accountCreatedAt).getTime()) / (24 * HOUR));
  add('account', `Account ${days} d old`, days < 7);
  if (s.ownAddress) add('own', `Address is ours (${s.ownAddress.replace('_', ' ')})`, true);
  return lines;
}

export function Signals({ item }: { item: ReviewItem }) {
  return (
    <ul className="signals" data-testid={`ops-wd-signals-${item.id}`}>
      {signalLines(item).map((l) => (
        <li key={l.key} data-signal={l.key} className={l.flag ? 'flag' : ''}>
          {l.text}
        </li>
      ))}
    </ul>
  );
}
