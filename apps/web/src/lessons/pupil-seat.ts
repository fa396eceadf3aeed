import { LessonForPupil } from '@helix/shared/lessons';

/**
 * The pupil's seat (the join's answer), kept in this tab's sessionStorage only: a reload of the tablet
 * rejoins the same seat without asking again, and closing the tab forgets it (nothing in
 * localStorage, nothing beyond the lesson).
 */
const key = (lessonId: string) => `helix:lesson-seat:${lessonId}`;

export function keepSeat(seat: LessonForPupil): void {
  try {
    sessionStorage.setItem(key(seat.lessonId), JSON.stringify(seat));
  } catch {
    // Storage refused (private mode, full): the seat lasts as long as the page.
  }
}

export function readSeat(lessonId: string): LessonForPupil | null {
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
  try {
    sessionStorage.removeItem(key(lessonId));
  } catch {
    // Nothing kept.
  }
}
