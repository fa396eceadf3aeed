import { LessonFrameMessage, type LessonView, type ViewerLessonMessage } from '@helix/shared/lessons';

/** Whom the viewer takes lesson messages from: its parent window, on the portal's origin. */
export interface FrameSender {
  /** The framing window (null when the viewer is not framed: then nothing is accepted). */
  parent: MessageEventSource | null;
  /** The portal's origin (the API's, which serves the portal); null when it is not known. */
  origin: string | null;
}

/**
 * A message from the lesson page, or null for anything else: another window or origin, another
 * source, a malformed or unknown message (LessonFrameMessage, the shared schema, decides).
 */
export function readFrameMessage(
  event: Pick<MessageEvent, 'source' | 'origin' | 'data'>,
  from: FrameSender,
): LessonFrameMessage | null {
  if (!from.parent || event.source !== from.parent) return null;
  if (from.origin !== null && event.origin !== from.origin) return null;
  const parsed = LessonFrameMessage.safeParse(event.data);
  return parsed.success ? parsed.data : null;
}

/** What the viewer posts to the lesson page when it leads and its view changed. */
export const lessonViewMessage = (view: LessonView): ViewerLessonMessage => ({
  source: 'helix-viewer',
  type: 'lesson-view',
  view,
});
