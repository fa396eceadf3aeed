import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { MSG } from '@helix/shared';
import { JoinLessonByLti, type LessonForPupil } from '@helix/shared/lessons';
import { joinLessonByLti } from '../../lessons/lessons.api';
import { keepSeat } from '../../lessons/pupil-seat';
import { refusalText } from './join-refusal';
import { takeLtiTicket } from './lti-ticket';

export type LtiJoinOutcome = { seat: LessonForPupil } | { refusal: string };

/** The seat a learner's launch ticket takes, or the words of the refusal (the form's refusal area). */
export async function joinByLtiTicket(
  ticket: string,
  join: (input: JoinLessonByLti) => Promise<LessonForPupil> = joinLessonByLti,
): Promise<LtiJoinOutcome> {
  const input = JoinLessonByLti.safeParse({ ticket });
  if (!input.success) return { refusal: MSG.lessonNotFound };
  try {
    return { seat: await join(input.data) };
  } catch (error) {
    return { refusal: refusalText(error) ?? MSG.lessonNotFound };
  }
}

/**
 * A learner's LTI launch lands on /join/{code}#lti={ticket}: once hydrated (the fragment never reaches
 * the server), the page takes the ticket out of the address bar and joins with it, without asking for a
 * name (the platform's is used), keeps the seat like the join by code and opens the pupil's page. True
 * while joining; a refusal is handed to `onRefused` and the code form is the way in.
 */
export function useLtiJoin(onRefused: (text: string) => void): boolean {
  const navigate = useNavigate();
  const [joining, setJoining] = useState(false);
  const taken = useRef(false);
  const refused = useRef(onRefused);
  refused.current = onRefused;

  useEffect(() => {
    // Once per page, even when an effect runs twice (StrictMode): the ticket is gone after the first.
    if (taken.current) return;
    taken.current = true;
    const ticket = takeLtiTicket(window);
    if (ticket === null) return;
    setJoining(true);
    void joinByLtiTicket(ticket).then((outcome) => {
      if ('seat' in outcome) {
        keepSeat(outcome.seat);
        void navigate(`/lesson/${encodeURIComponent(outcome.seat.lessonId)}`);
        return;
      }
      refused.current(outcome.refusal);
      setJoining(false);
    });
  }, [navigate]);

  return joining;
}
