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

export function formatMailDate(at: Date): string {
  // One formatToParts per date (a bulk invite formats one per e-mail).
  const parts = FORMAT.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')} ${part('month')} ${part('year')} at ${part('hour')}:${part('minute')} UTC`;
}
