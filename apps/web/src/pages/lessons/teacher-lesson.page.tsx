import { Button, Popconfirm, Result } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import type { LessonAck, LessonForTeacher } from '@helix/shared/lessons';
import { lessonKeys, lessonQuery } from '../../lessons/lessons.queries';
import { useLessonSeat } from '../../lessons/use-lesson-seat';
import { PageTitle } from '../../ui/page-title';
import { QueryLoading } from '../../ui/query-state';
import { toastError } from '../../ui/notify';
import { JoinCard } from './join-card';
import { LessonRoster } from './lesson-roster';
import { BackButton, overMessage, SeatStatusTag, TeacherRefusal } from './lesson-status';
import './lessons.css';

/**
 * The teacher's live lesson (/user/lessons/{id}): their viewer frame, which the class follows, beside
 * the panel (under it on a phone): how to join, who is in, who leads, and the end. The page is open to
 * any signed-in user; the API decides (403 for a user who may not lead lessons, 404 for another's).
 */
export function TeacherLessonPage() {
  const { id = '' } = useParams();
  const lesson = useQuery(lessonQuery(id));
  if (lesson.data) return <TeacherLesson data={lesson.data} />;
  if (lesson.isError) return <TeacherRefusal error={lesson.error} />;
  return <QueryLoading label="Loading the lesson" rows={6} />;
}

function LessonEnded({ message }: { message: string }) {
  return (
    <Result status="info" title={message} extra={<BackButton to="/user/home">Back to models</BackButton>} />
  );
}

function TeacherLesson({ data }: { data: LessonForTeacher }) {
  const { lesson } = data;
  const live = lesson.status === 'live';
  const { frame, frameUrl, socket, seat } = useLessonSeat(live ? data.socketToken : null, data.viewerUrl);
  const queryClient = useQueryClient();
  const over = seat.status === 'over';
  useEffect(() => {
    // The lesson ended: its tokens are no use, a later visit asks the server again.
    if (over) void queryClient.invalidateQueries({ queryKey: lessonKeys.forTeacher(lesson.id) });
  }, [over, queryClient, lesson.id]);

  if (!live) return <LessonEnded message={MSG.lessonOver} />;
  if (over) return <LessonEnded message={overMessage(seat.overReason)} />;

  const down = seat.status !== 'live';
  const run = (command: Promise<LessonAck> | undefined) =>
    void command?.then((ack) => {
      if (!ack.ok) toastError(ack.message);
    });
  const leader = seat.control ? seat.roster.find((p) => p.id === seat.control) : undefined;
  const leads =
    seat.control !== null
      ? MSG.lessonPupilLeads(leader?.name ?? 'A pupil')
      : seat.mode === 'free'
        ? MSG.lessonClassExplores
        : MSG.lessonTeacherLeads;

  return (
    <div className="lesson-teacher">
      <PageTitle title={`Live lesson: ${lesson.modelName}`} />
      <header className="lesson-teacher-head">
        <h1 className="lesson-teacher-title">{lesson.modelName}</h1>
        <SeatStatusTag status={seat.status} />
      </header>
      <div className="lesson-teacher-grid">
        <div className="lesson-frame-box">
          {frameUrl ? (
            <iframe
              ref={frame}
              className="lesson-frame"
              title={`${lesson.modelName} viewer`}
              src={frameUrl}
              allow="fullscreen; xr-spatial-tracking"
            />
          ) : (
            <Result status="warning" title={MSG.viewerFailed} />
          )}
        </div>
        <aside className="lesson-panel" aria-label="Lesson controls">
          <JoinCard lesson={lesson} />
          <section className="lesson-lead" aria-labelledby="lesson-lead-title">
            <h2 id="lesson-lead-title" className="lesson-panel-title">
              The class
            </h2>
            <p role="status" data-testid="lesson-leader">
              {leads}
            </p>
            <div className="lesson-lead-actions">
              {seat.mode === 'follow' ? (
                <Button disabled={down} onClick={() => run(socket?.setMode('free'))}>
                  Let them explore
                </Button>
              ) : (
                <Button type="primary" disabled={down} onClick={() => run(socket?.setMode('follow'))}>
                  All eyes on me
                </Button>
              )}
              {seat.control !== null && (
                <Button disabled={down} onClick={() => run(socket?.setControl(null))}>
                  Take back control
                </Button>
              )}
            </div>
          </section>
          <LessonRoster
            pupils={seat.roster}
            control={seat.control}
            disabled={down}
            actions={{
              giveControl: (pupil) => run(socket?.setControl(pupil.id)),
              takeBack: () => run(socket?.setControl(null)),
              remove: (pupil) => run(socket?.remove(pupil.id)),
            }}
          />
          <Popconfirm
            title="End the lesson for everyone?"
            description="Every tablet leaves the lesson and the code stops working."
            okText="Yes, end it"
            okButtonProps={{ danger: true }}
            cancelText="Cancel"
            onConfirm={() => run(socket?.end())}
            disabled={down}
          >
            <Button danger block disabled={down} className="lesson-end">
              End lesson
            </Button>
          </Popconfirm>
        </aside>
      </div>
    </div>
  );
}
