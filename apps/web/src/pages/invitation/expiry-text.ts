import dayjs from 'dayjs';

/** When a link expired, in the reader's own time: "10 December 2026 at 14:00". */
export const expiredOn = (iso: string): string => dayjs(iso).format('D MMMM YYYY [at] HH:mm');
