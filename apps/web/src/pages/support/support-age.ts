const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** How long a request has waited, short: '5 min', '3 h', '2 d' (under a minute: 'just now'). */
export function supportAge(createdAt: string, now = Date.now()): string {
  const ms = Math.max(0, now - Date.parse(createdAt));
  if (ms < MINUTE) return 'just now';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)} min`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)} h`;
  return `${Math.floor(ms / DAY)} d`;
}
