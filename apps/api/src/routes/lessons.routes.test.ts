import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { LESSON_CODE_ALPHABET, LessonForPupil, LessonForTeacher, LessonSummary } from '@helix/shared/lessons';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import { lessonCodeKey } from '@helix/server/lessons/lesson-store';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  member,
  type ModelHarness,
} from '../../test/models.ts';
import { lessonRealtimeOf } from '../lessons/lesson-realtime.ts';

let h: ModelHarness;

beforeAll(async () => {
  h = await createModelHarness();
});
afterAll(async () => {
  await lessonRealtimeOf(h.app).close();
  await h?.close();
});

/** A school whose plan sells live lessons (or not), its owner (Admin role) and a model. */
async function school(opts: { liveLessons?: boolean } = {}) {
  const plan = await createPlan(h.db, {
    modelEmbed: true,
    liveLessons: opts.liveLessons ?? true,
    viewLimit: 1000,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  const owner = await customer(h, { plan });
  const model = await createModel(h);
  return { owner, model };
}

const start = (caller: { base: string; token: string }, modelId: number) =>
  request(h.app).post(`${caller.base}/lessons`).set(bearer(caller.token)).send({ modelId });
const join = (body: object, token?: string) => {
  const req = request(h.app).post('/api/lessons/join');
  return (token ? req.set(bearer(token)) : req).send(body);
};
/** A code that no live lesson has (the alphabet's; the chance of meeting a live one is nil here). */
const unknownCode = () =>
  Array.from({ length: 6 }, () => LESSON_CODE_ALPHABET[Math.floor(Math.random() * 31)]).join('');

describe('starting a lesson', () => {
  it('gives the teacher the lesson, its code, join link and tokens; a second start gives the same one', async () => {
    const { owner, model } = await school();
    const res = await start(owner, model.id);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const answer = LessonForTeacher.parse(res.body);
    expect(answer.lesson).toMatchObject({ modelId: model.id, modelName: model.name, status: 'live' });
    expect(answer.lesson.code).toMatch(new RegExp(`^[${LESSON_CODE_ALPHABET}]{6}$`));
    expect(answer.lesson.joinUrl).toBe(`http://portal.test/join/${answer.lesson.code}`);
    expect(answer.lesson.idleEndsAt).not.toBeNull();
    const viewer = new URL(answer.viewerUrl);
    expect(viewer.searchParams.get('currentmode')).toBe('lesson');
    expect(viewer.searchParams.get('subscription')).toBe(answer.socketToken);
    expect(viewer.searchParams.get('model')).toBe(model.urlModelName);

    const again = await start(owner, model.id);
    expect(again.status).toBe(200);
    expect(again.body.lesson.id).toBe(answer.lesson.id);
    expect(again.body.lesson.code).toBe(answer.lesson.code);

    const read = await request(h.app)
      .get(`${owner.base}/lessons/${answer.lesson.id}`)
      .set(bearer(owner.token));
    expect(read.status).toBe(200);
    expect(LessonForTeacher.parse(read.body).lesson.id).toBe(answer.lesson.id);
  });

  it('needs Lesson.lead, which a plan without live lessons does not sell (403)', async () => {
    const { owner, model } = await school({ liveLessons: false });
    const res = await start(owner, model.id);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe(MSG.lessonNotInPlan);

    const { owner: other, model: m2 } = await school();
    const plainUser = await member(h, other.tenant, ['User']);
    const refused = await start(plainUser, m2.id);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(MSG.unauthorizedAccess);
  });

  it('refuses bad input (400) and a model the school cannot see (404)', async () => {
    const { owner } = await school();
    const bad = await request(h.app)
      .post(`${owner.base}/lessons`)
      .set(bearer(owner.token))
      .send({ modelId: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toHaveProperty('modelId');
    const hidden = await createModel(h, { isPublic: false });
    const res = await start(owner, hidden.id);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(MSG.lessonModelGone);
  });

  it("another school's lesson, or another teacher's, is a 404", async () => {
    const a = await school();
    const b = await school();
    const lesson = (await start(a.owner, a.model.id)).body as LessonForTeacher;
    const path = (base: string) => `${base}/lessons/${lesson.lesson.id}`;
    expect((await request(h.app).get(path(b.owner.base)).set(bearer(b.owner.token))).status).toBe(404);
    expect((await request(h.app).get(path(a.owner.base)).set(bearer(b.owner.token))).status).toBe(404);
    expect(
      (
        await request(h.app)
          .post(`${path(b.owner.base)}/end`)
          .set(bearer(b.owner.token))
      ).status,
    ).toBe(404);
    const colleague = await member(h, a.owner.tenant, ['Admin']);
    expect((await request(h.app).get(path(a.owner.base)).set(bearer(colleague.token))).status).toBe(404);
  });
});

describe('joining', () => {
  it('a guest joins by code with a name; a signed-in pupil under their own name', async () => {
    const { owner, model } = await school();
    const lesson = (await start(owner, model.id)).body as LessonForTeacher;
    const guest = await join({ code: lesson.lesson.code.toLowerCase(), name: '  Ada  ' });
    expect(guest.status, JSON.stringify(guest.body)).toBe(200);
    const seat = LessonForPupil.parse(guest.body);
    expect(seat).toMatchObject({ lessonId: lesson.lesson.id, name: 'Ada', modelName: model.name });
    expect(new URL(seat.viewerUrl).searchParams.get('subscription')).toBe(seat.socketToken);

    const other = await customer(h);
    const signedIn = await join({ code: lesson.lesson.code }, other.token);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.name).toBe(other.user.name);
    // The same user again takes the same seat.
    expect((await join({ code: lesson.lesson.code }, other.token)).body.pupilId).toBe(signedIn.body.pupilId);
  });

  it('validates with the shared messages', async () => {
    const shortCode = await join({ code: 'ABC', name: 'Ada' });
    expect(shortCode.status).toBe(400);
    expect(shortCode.body.errors.code).toBe(MSG.lessonCodeInvalid);
    const markup = await join({ code: 'ABCDEF', name: '<b>Ada</b>' });
    expect(markup.status).toBe(400);
    expect(markup.body.errors.name).toBe(MSG.lessonNameInvalid);
    const { owner, model } = await school();
    const lesson = (await start(owner, model.id)).body as LessonForTeacher;
    const guestWithoutName = await join({ code: lesson.lesson.code });
    expect(guestWithoutName.status).toBe(400);
    expect(guestWithoutName.body.message).toBe(MSG.lessonNameRequired);
  });

  it('throttles wrong codes per address (429 with Retry-After); the code goes when the lesson ends', async () => {
    const { owner, model } = await school();
    const lesson = (await start(owner, model.id)).body as LessonForTeacher;
    // An address of its own (behind a trusted proxy), so no other test's wrong codes count.
    const proxied = h.appWith({ TRUST_PROXY: '127.0.0.1', LESSON_JOIN_FAILURES_PER_MINUTE: '3' });
    const guess = (code: string) =>
      request(proxied)
        .post('/api/lessons/join')
        .set('X-Forwarded-For', '203.0.113.77')
        .send({ code, name: 'Eve' });

    const end = await request(h.app)
      .post(`${owner.base}/lessons/${lesson.lesson.id}/end`)
      .set(bearer(owner.token));
    expect(end.status).toBe(200);
    expect(LessonSummary.parse(end.body)).toMatchObject({ status: 'ended', idleEndsAt: null });
    expect(await h.redis.get(lessonCodeKey(h.config.REDIS_PREFIX, lesson.lesson.code))).toBeNull();
    const gone = await join({ code: lesson.lesson.code, name: 'Ada' });
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe(MSG.lessonNotFound);

    // Three wrong codes a minute: the fourth try is refused, whatever its code.
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await guess(unknownCode())).status);
    expect(statuses).toEqual([404, 404, 404]);
    const throttled = await guess(lesson.lesson.code);
    expect(throttled.status).toBe(429);
    expect(throttled.body.message).toBe(MSG.lessonJoinThrottled);
    expect(Number(throttled.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the viewer in lesson mode', () => {
  it('loads with a seat token, counts one view per seat per lesson, refuses it after the end', async () => {
    const { owner, model } = await school();
    const lesson = (await start(owner, model.id)).body as LessonForTeacher;
    const pupils = [];
    for (const name of ['Ada', 'Ben'])
      pupils.push((await join({ code: lesson.lesson.code, name })).body as LessonForPupil);
    const load = (viewerUrl: string) =>
      request(h.app)
        .get('/api/viewer/model')
        .query(Object.fromEntries(new URL(viewerUrl).searchParams.entries()))
        .set('Origin', h.config.VIEWER_URL);
    const views = async () =>
      (await request(h.app).get(`${owner.base}/model/all`).set(bearer(owner.token))).body.views
        .viewCount as number;

    const before = await views();
    for (const seat of [...pupils, ...pupils]) {
      const res = await load(seat.viewerUrl);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body.name).toBe(model.name);
      expect(res.body.record).toBe(false);
    }
    expect((await load(lesson.viewerUrl)).status).toBe(200);
    // Two pupils (each loaded twice) and the teacher: three views.
    expect((await views()) - before).toBe(3);

    await request(h.app).post(`${owner.base}/lessons/${lesson.lesson.id}/end`).set(bearer(owner.token));
    const after = await load(pupils[0]!.viewerUrl);
    expect(after.status).toBe(403);
    expect(after.body.message).toBe(MSG.lessonOver);
  });
});
