import { MSG } from '@helix/shared/messages';
import { h } from '../ui/dom.ts';

export type LessonRole = 'lead' | 'follow' | 'free';
export type LessonStatus = 'live' | 'reconnecting' | 'over';

/**
 * The lesson's line over the model: "Reconnecting…" and "The lesson has ended." as a card in the
 * middle, "Following the lesson" as a small chip at the top. It never takes the pointer (a free
 * pupil keeps turning the model while the connection comes back) and screen readers hear it.
 */
export function lessonStatusLine(stage: HTMLElement): { show(role: LessonRole, status: LessonStatus): void } {
  const el = h('div', {
    class: 'lesson-status',
    role: 'status',
    'data-testid': 'lesson-status',
    hidden: true,
  });
  stage.append(el);
  return {
    show(role, status) {
      const text =
        status === 'reconnecting'
          ? MSG.lessonReconnecting
          : status === 'over'
            ? MSG.lessonOver
            : role === 'follow'
              ? MSG.viewerLessonFollowing
              : '';
      el.dataset.kind = status === 'live' ? 'chip' : 'card';
      el.dataset.status = status;
      if (el.textContent !== text) el.textContent = text;
      el.hidden = !text;
    },
  };
}
