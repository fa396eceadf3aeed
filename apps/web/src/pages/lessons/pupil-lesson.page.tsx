import { Result, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import type { LessonForPupil } from '@helix/shared/lessons';
import { forgetSeat, readSeat } from '../../lessons/pupil-seat';
import type { FrameRole } from '../../lessons/lesson-relay';
import type { LessonStatus } from '../../lessons/lesson-socket';
import { useLessonSeat } from '../../lessons/use-lesson-seat';
import { PageTitle } from '../../ui/page-title';
import { BackButton, overMessage } from './lesson-status';
import './lessons.css';

/**
 * The pupil's lesson (/lesson/{lessonId}): the viewer frame full-size under a slim bar that says what
 * the tablet is doing. The seat comes from this tab's sessionStorage (kept by the join), so a reload
 * rejoins the same seat; without one, the pupil is sent to /join.
 */
export function PupilLessonPage() {
  const { lessonId = '' } = useParams();
  const [seat] = useState(() => readSeat(lessonId));
  if (!seat) return <Navigate to="/join" replace />;
  return <PupilLesson seat={seat} />;
}

function stateText(status: LessonStatus, role: FrameRole | null): { text: string; color: string } {
  if (status === 'connecting') return { text: MSG.lessonConnecting, color: 'default' };
  if (status === 'reconnecting') return { text: MSG.lessonReconnecting, color: 'orange' };
  if (role === 'lead') return { text: MSG.lessonInControl, color: 'purple' };
  if (role === 'free') return { text: MSG.lessonExploring, color: 'green' };
  return { text: MSG.lessonFollowing, color: 'blue' };
}

function PupilLesson({ seat: pupil }: { seat: LessonForPupil }) {
  const { frame, frameUrl, seat, role } = useLessonSeat(pupil.socketToken, pupil.viewerUrl);
  const over = seat.status === 'over';
  useEffect(() => {
    if (over) forgetSeat(pupil.lessonId);
  }, [over, pupil.lessonId]);

  const state = stateText(seat.status, role);
  return (
    <div className="lesson-pupil-page">
      <PageTitle title={pupil.modelName} />
      {/* Everything here is React text: a pupil's name is never markup. */}
      <header className="lesson-bar">
        <h1 className="lesson-bar-model">{pupil.modelName}</h1>
        <span className="lesson-bar-name" data-testid="lesson-pupil-name">
          {pupil.name}
        </span>
        {!over && (
          <Tag
            className="lesson-bar-state"
            color={state.color}
            role="status"
            data-testid="lesson-state"
            data-status={seat.status}
            data-role={role ?? undefined}
          >
            {state.text}
          </Tag>
        )}
      </header>
      {over ? (
        <Result
          className="lesson-over"
          status="info"
          title={<span data-testid="lesson-over">{overMessage(seat.overReason)}</span>}
          extra={<BackButton to="/join">Join another lesson</BackButton>}
        />
      ) : frameUrl ? (
        <iframe
          ref={frame}
          className="lesson-pupil-frame"
          title={`${pupil.modelName} viewer`}
          src={frameUrl}
          allow="fullscreen; xr-spatial-tracking"
        />
      ) : (
        <Result className="lesson-over" status="warning" title={MSG.viewerFailed} />
      )}
    </div>
  );
}
