/**
 * A moment as an e-mail says it, in UTC so every reader gets the same words: "10 December 2026 at
 * 14:00 UTC". Intl's formatter (the platform's ICU data) does the month names; no date library needed
 * on the server for one fixed format.
 */
const FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The last date said: a bulk invite's rows share one expiry, so its e-mails format it once. */
let last: { time: number; words: string } | undefined;

export function formatMailDate(at: Date): string {
  const time = at.getTime();
  if (last?.time === time) return last.words;
  const parts = FORMAT.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  const words = `${part('day')} ${part('month')} ${part('year')} at ${part('hour')}:${part('minute')} UTC`;
  last = { time, words };
  return words;
}
