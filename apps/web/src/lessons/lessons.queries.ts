import { queryOptions } from '@tanstack/react-query';
import { fetchLesson } from './lessons.api';

/** The live lessons' query keys, in one place. */
export const lessonKeys = {
  all: ['lessons'] as const,
  forTeacher: (id: string) => [...lessonKeys.all, 'teacher', id] as const,
};

/**
 * The teacher's lesson (GET /lessons/{id}). Its tokens do not go stale while the lesson lives, so the
 * page never asks again by itself; starting a lesson seeds it (seedLesson).
 */
export const lessonQuery = (id: string) =>
  queryOptions({
    queryKey: lessonKeys.forTeacher(id),
    queryFn: ({ signal }) => fetchLesson(id, signal),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
