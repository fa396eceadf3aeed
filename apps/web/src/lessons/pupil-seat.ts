import { LessonForPupil } from '@helix/shared/lessons';

/**
 * The pupil's seat (the join's answer), kept in this tab's sessionStorage only: a reload of the tablet
 * rejoins the same seat without asking again, and closing the tab forgets it (nothing in
 * localStorage, nothing beyond the lesson). Where storage is refused (a course's launch inside the
 * learning platform's frame, whose browser blocks a third party's storage; private mode), the seat
 * lasts as long as the page: it is kept in memory too.
 */
const key = (lessonId: string) => `helix:lesson-seat:${lessonId}`;
const inPage = new Map<string, LessonForPupil>();

export function keepSeat(seat: LessonForPupil): void {
  inPage.set(seat.lessonId, seat);
  try {
    sessionStorage.setItem(key(seat.lessonId), JSON.stringify(seat));
  } catch {
    // Storage refused: the page's copy above is the seat.
  }
}

export function readSeat(lessonId: string): LessonForPupil | null {
  const kept = inPage.get(lessonId);
  if (kept) return kept;
  try {
    const raw = sessionStorage.getItem(key(lessonId));
    if (!raw) return null;
    const seat = LessonForPupil.safeParse(JSON.parse(raw));
    return seat.success && seat.data.lessonId === lessonId ? seat.data : null;
  } catch {
    return null;
  }
}

export function forgetSeat(lessonId: string): void {
  inPage.delete(lessonId);
  try {
    sessionStorage.removeItem(key(lessonId));
  } catch {
    // Nothing kept.
  }
}
