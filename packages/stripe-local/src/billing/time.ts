import type { Interval } from '../core/records.ts';

export const DAY = 86_400;
export const HOUR = 3_600;

/** `from` plus `count` intervals, in UTC; a month end is clamped (Jan 31 + 1 month = Feb 28/29), as Stripe does. */
export function addInterval(from: number, interval: Interval, count: number): number {
  if (interval === 'day') return from + count * DAY;
  if (interval === 'week') return from + count * 7 * DAY;
  const date = new Date(from * 1000);
  const months = interval === 'year' ? count * 12 : count;
  const day = date.getUTCDate();
  const target = new Date(
    Date.UTC(
      date.getUTCFullYear(),
      date.getUTCMonth() + months,
      1,
      date.getUTCHours(),
      date.getUTCMinutes(),
      date.getUTCSeconds(),
    ),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return Math.floor(target.getTime() / 1000);
}

/** The first period end after `after`, counting whole periods from the billing cycle anchor. */
export function nextPeriodEnd(anchor: number, interval: Interval, count: number, after: number): number {
  for (let n = 1; n < 10_000; n++) {
    const end = addInterval(anchor, interval, n * count);
    if (end > after) return end;
  }
  throw new Error('period computation did not converge');
}
