import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { startLesson } from '../../lessons/lessons.api';
import { lessonKeys } from '../../lessons/lessons.queries';
import { PageTitle } from '../../ui/page-title';
import { QueryLoading } from '../../ui/query-state';
import { TeacherRefusal } from './lesson-status';

/**
 * /user/lessons/start?lti={ticket}: "Start a live lesson" from a course. The instructor's teaching page
 * in the learning platform's frame opens it in a tab of its own, where the teacher's Helix session
 * applies (signed out, the route guard keeps this address and comes back to it after the sign-in). It
 * starts the course's lesson with the launch ticket, or reopens the one still live, then shows the
 * teacher's lesson page in its place (the ticket leaves the address bar). A refusal (a ticket expired
 * or of another school, the plan, the permission) is the server's message (docs/live-lessons.md).
 */
export function StartLessonPage() {
  const [params] = useSearchParams();
  const ticket = params.get('lti') ?? '';
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const start = useMutation({
    mutationFn: (ltiTicket: string) => startLesson({ ltiTicket }, { toast: false }),
    onSuccess: (answer) => {
      queryClient.setQueryData(lessonKeys.forTeacher(answer.lesson.id), answer);
      void navigate(`/user/lessons/${encodeURIComponent(answer.lesson.id)}`, { replace: true });
    },
  });
  // Once per ticket (a development double effect would only reopen the same lesson, but twice).
  const asked = useRef<string | null>(null);
  const { mutate } = start;
  useEffect(() => {
    if (!ticket || asked.current === ticket) return;
    asked.current = ticket;
    mutate(ticket);
  }, [ticket, mutate]);

  if (!ticket) return <TeacherRefusal error={null} fallback={MSG.lessonLtiTicketInvalid} />;
  if (start.isError) return <TeacherRefusal error={start.error} />;
  return (
    <>
      <PageTitle title={MSG.lessonStarting} />
      <QueryLoading label={MSG.lessonStarting} rows={6} />
    </>
  );
}
