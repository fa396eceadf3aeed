import { z } from 'zod';
import { sameSignature, sign } from '../models/signing.ts';

/**
 * The signed credential of one seat in a live lesson (issue 32): the teacher's or a pupil's. The REST
 * calls mint it (start, join); the socket handshake and the viewer frame (mode 'lesson', as
 * `subscription`) present it. Signed with SIGNING_SECRET under its own label, so neither a viewer
 * ticket nor an embed token can pass for it. It carries no more than the seat needs: a pupil's name of
 * their choosing lives only here and in the lesson's Redis roster, gone when the lesson ends.
 *
 * A valid signature is not enough: whoever accepts it also checks that the lesson is still live and
 * that the pupil was not removed (the lesson's state in Redis).
 */
export const LessonSeat = z.object({
  lessonId: z.string().min(1).max(64),
  tenantId: z.number().int().positive(),
  modelId: z.number().int().positive(),
  role: z.enum(['teacher', 'pupil']),
  /** 'teacher' for the teacher; a random id for a pupil (the same on every reconnect of that seat). */
  seatId: z.string().min(1).max(64),
  name: z.string().max(200),
  /** The portal user behind the seat (the teacher, a signed-in pupil), null for a guest pupil. */
  userId: z.number().int().positive().nullable(),
  /** Unix seconds. */
  exp: z.number().int(),
});
export type LessonSeat = z.infer<typeof LessonSeat>;

/** At most a school day: a lesson ends long before (idle time), and its end refuses the token anyway. */
export const LESSON_TOKEN_TTL_SECONDS = 12 * 60 * 60;

const LABEL = 'lesson-seat';
const SHAPE = /^l1\.([A-Za-z0-9_-]{10,1200})\.([A-Za-z0-9_-]{43})$/;

/** `l1.<payload>.<signature>`. */
export function signLessonSeat(
  secret: string,
  seat: Omit<LessonSeat, 'exp'>,
  ttlSeconds = LESSON_TOKEN_TTL_SECONDS,
): string {
  const body: LessonSeat = { ...seat, exp: Math.floor(Date.now() / 1000) + ttlSeconds };
  const payload = Buffer.from(JSON.stringify(body)).toString('base64url');
  return `l1.${payload}.${sign(secret, LABEL, payload)}`;
}

/** Whether a `subscription` the viewer sends is a lesson seat (the viewer route's dispatch). */
export const isLessonSeatToken = (token: string): boolean => token.startsWith('l1.');

/** The seat, or null when the token is malformed, forged or expired. */
export function verifyLessonSeat(secret: string, token: unknown): LessonSeat | null {
  if (typeof token !== 'string') return null;
  const match = SHAPE.exec(token);
  if (!match) return null;
  const [, payload = '', signature = ''] = match;
  if (!sameSignature(signature, sign(secret, LABEL, payload))) return null;
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const seat = LessonSeat.safeParse(body);
  if (!seat.success || seat.data.exp < Math.floor(Date.now() / 1000)) return null;
  return seat.data;
}
