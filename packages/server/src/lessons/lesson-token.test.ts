import { describe, expect, it } from 'vitest';
import { signViewerTicket } from '../models/signing.ts';
import { isLessonSeatToken, signLessonSeat, verifyLessonSeat } from './lesson-token.ts';

const SECRET = 'a-test-secret-of-enough-length-0123456789';
const seat = {
  lessonId: 'lsn_1',
  tenantId: 3,
  modelId: 7,
  role: 'pupil' as const,
  seatId: 'p_abc',
  name: 'Uma <b>',
  userId: null,
};

describe('lesson seat tokens', () => {
  it('round-trips a seat and tells itself apart from a viewer ticket', () => {
    const token = signLessonSeat(SECRET, seat);
    expect(isLessonSeatToken(token)).toBe(true);
    expect(verifyLessonSeat(SECRET, token)).toMatchObject(seat);
    const ticket = signViewerTicket(SECRET, { tenantId: 3, userId: 1, modelId: 7 });
    expect(isLessonSeatToken(ticket)).toBe(false);
    expect(verifyLessonSeat(SECRET, ticket)).toBeNull();
  });

  it('refuses a forged, tampered, expired or malformed token', () => {
    const token = signLessonSeat(SECRET, seat);
    expect(verifyLessonSeat('another-secret-of-enough-length-0123456', token)).toBeNull();
    const [head, payload, sig] = token.split('.');
    const other = Buffer.from(JSON.stringify({ ...seat, role: 'teacher', exp: 9e9 })).toString('base64url');
    expect(verifyLessonSeat(SECRET, `${head}.${other}.${sig}`)).toBeNull();
    expect(verifyLessonSeat(SECRET, `${head}.${payload}`)).toBeNull();
    expect(verifyLessonSeat(SECRET, signLessonSeat(SECRET, seat, -1))).toBeNull();
    expect(verifyLessonSeat(SECRET, 42)).toBeNull();
  });
});
