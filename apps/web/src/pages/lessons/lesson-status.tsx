import { Button, Result, Tag } from 'antd';
import { useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import type { LessonEndReason } from '@helix/shared/lessons';
import type { LessonStatus } from '../../lessons/lesson-socket';
import { ApiError } from '../../api/api-error';

/** Why the lesson is over for this seat, in the catalogue's words. */
export function overMessage(reason: LessonEndReason | null): string {
  if (reason === 'idle') return MSG.lessonIdleOver;
  if (reason === 'removed') return MSG.lessonRemoved;
  return MSG.lessonOver;
}

/** The connection, as a tag: live, connecting or reconnecting (a live region: it is read out). */
export function SeatStatusTag({ status }: { status: LessonStatus }) {
  const [color, text] =
    status === 'live'
      ? ['green', 'Live']
      : status === 'connecting'
        ? ['default', MSG.lessonConnecting]
        : status === 'reconnecting'
          ? ['orange', MSG.lessonReconnecting]
          : ['default', MSG.lessonOver];
  return (
    <Tag color={color} role="status" data-testid="lesson-connection" data-status={status}>
      {text}
    </Tag>
  );
}

/** A way out of a lesson page (to the models, to /join). */
export function BackButton({ to, children }: { to: string; children: string }) {
  const navigate = useNavigate();
  return (
    <Button type="primary" onClick={() => void navigate(to)}>
      {children}
    </Button>
  );
}

/**
 * A teacher's lesson page the server refused (403: may not lead lessons; 404: another's; a ticket not
 * valid): its message, or `fallback` when there is no server answer, and the way back to the models.
 */
export function TeacherRefusal({
  error,
  fallback = MSG.defaultError,
}: {
  error: unknown;
  fallback?: string;
}) {
  const answered = error instanceof ApiError && error.statusCode !== 0;
  return (
    <Result
      status={error instanceof ApiError && error.statusCode === 403 ? '403' : 'warning'}
      title={answered ? error.message : fallback}
      extra={<BackButton to="/user/home">Back to models</BackButton>}
    />
  );
}
