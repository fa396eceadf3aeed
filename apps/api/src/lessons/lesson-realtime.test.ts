import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Express } from 'express';
import {
  LESSON_SOCKET_PATH,
  LessonWelcome,
  type LessonAck,
  type LessonForPupil,
  type LessonForTeacher,
  type LessonRosterEvent,
  type LessonView,
  type LessonViewMessage,
} from '@helix/shared/lessons';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import { bearer, createModel, createModelHarness, customer, type ModelHarness } from '../../test/models.ts';
import type { Twin } from '../../test/harness.ts';
import { lessonSockets } from '@helix/server/metrics/metrics';
import { lessonRealtimeOf } from './lesson-realtime.ts';

/**
 * Lesson sockets on two API processes in all but the process (the harness's app and a twin: their
 * own Redis connections and socket.io servers, one Redis), each on its own port. Waits are for events,
 * with generous hang detectors; nothing is timed.
 */
const WAIT_MS = 15_000;
let h: ModelHarness;
let twin: Twin;
let idleTwin: Twin;
const servers: Server[] = [];
let one: string;
let two: string;
let idle: string;
const sockets: Socket[] = [];

async function serve(app: Express): Promise<string> {
  const server = createServer(app);
  lessonRealtimeOf(app).attach(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  h = await createModelHarness();
  twin = await h.twin();
  idleTwin = await h.twin({ LESSON_IDLE_MS: '1000' });
  one = await serve(h.app);
  two = await serve(twin.app);
  idle = await serve(idleTwin.app);
}, 60_000);
afterAll(async () => {
  for (const socket of sockets) socket.disconnect();
  for (const app of [h?.app, twin?.app, idleTwin?.app]) if (app) await lessonRealtimeOf(app).close();
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  await idleTwin?.close();
  await twin?.close();
  await h?.close();
});

/** Resolves with the next `event` on `socket` (a hang detector, not a timing). */
function next<T>(socket: Socket, event: string, accept: (value: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within ${WAIT_MS} ms`)), WAIT_MS);
    const on = (value: T) => {
      if (!accept(value)) return;
      clearTimeout(timer);
      socket.off(event, on);
      resolve(value);
    };
    socket.on(event, on);
  });
}

/** A connected client with its welcome (listening before the connect, so nothing is missed). */
async function enter(base: string, token: string): Promise<{ socket: Socket; welcome: LessonWelcome }> {
  const socket = connect(base, {
    path: LESSON_SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
  });
  sockets.push(socket);
  const welcome = await Promise.race([
    next<unknown>(socket, 'welcome'),
    next<Error>(socket, 'connect_error').then((e) => Promise.reject(e)),
  ]);
  return { socket, welcome: LessonWelcome.parse(welcome) };
}

/** A refused connect's reason (connect_error's data). */
async function refused(base: string, token: string): Promise<string> {
  const socket = connect(base, {
    path: LESSON_SOCKET_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
  });
  sockets.push(socket);
  const error = await next<Error & { data?: { reason?: string } }>(socket, 'connect_error');
  return error.data?.reason ?? error.message;
}

const ack = (socket: Socket, event: string, payload: object) =>
  socket.timeout(WAIT_MS).emitWithAck(event, payload) as Promise<LessonAck>;

const view = (x: number, selected: string | null = null): LessonView => ({
  camera: { position: [x, 1, 2], target: [0, 0, 0] },
  selected,
  hiddenParts: [],
  cutaway: null,
  labels: true,
  colours: {},
  pointer: null,
});
const viewAt = (x: number) => (m: LessonViewMessage) => m.view.camera.position[0] === x;

async function lesson(app: Express = h.app) {
  const plan = await createPlan(h.db, {
    liveLessons: true,
    viewLimit: 1000,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  const owner = await customer(h, { plan });
  const model = await createModel(h);
  const res = await request(app)
    .post(`${owner.base}/lessons`)
    .set(bearer(owner.token))
    .send({ modelId: model.id });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const teacher = res.body as LessonForTeacher;
  const pupil = async (name: string) => {
    const joined = await request(app).post('/api/lessons/join').send({ code: teacher.lesson.code, name });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    return joined.body as LessonForPupil;
  };
  return { owner, model, teacher, pupil };
}

describe('lesson sockets', () => {
  it('welcomes with the current state; a late joiner and a reconnect get the latest view, not a replay', async () => {
    const { teacher, pupil, model } = await lesson();
    const t = await enter(one, teacher.socketToken);
    expect(t.welcome).toMatchObject({
      role: 'teacher',
      you: 'teacher',
      mode: 'follow',
      control: null,
      view: null,
      modelName: model.name,
    });
    const ada = await pupil('Ada');
    const a = await enter(two, ada.socketToken);
    expect(a.welcome).toMatchObject({ role: 'pupil', you: ada.pupilId, pupils: [] });

    const seen = next(a.socket, 'view', viewAt(3));
    t.socket.emit('view', { view: view(1), sentAt: Date.now() });
    t.socket.emit('view', { view: view(2), sentAt: Date.now() });
    t.socket.emit('view', { view: view(3, 'nucleus'), sentAt: Date.now() });
    const latest = await seen;
    expect(latest).toMatchObject({ by: 'teacher', view: { selected: 'nucleus' } });

    const ben = await pupil('Ben');
    const b = await enter(one, ben.socketToken);
    expect(b.welcome.view).toEqual(latest);
    a.socket.disconnect();
    const again = await enter(two, ada.socketToken);
    expect(again.welcome.view?.seq).toBe(latest.seq);
    expect(again.welcome.view?.view.camera.position).toEqual([3, 1, 2]);
  });

  it('ignores views from a pupil without control; hands control over and takes it back; sets the mode', async () => {
    const { teacher, pupil } = await lesson();
    const t = await enter(one, teacher.socketToken);
    const ada = await pupil('Ada');
    const ben = await pupil('Ben');
    const a = await enter(two, ada.socketToken);
    const b = await enter(two, ben.socketToken);

    // Ada has no control: her view goes nowhere; the teacher's next one arrives first.
    const atBen = next<LessonViewMessage>(b.socket, 'view');
    a.socket.emit('view', { view: view(66), sentAt: Date.now() });
    a.socket.emit('view', { bogus: true });
    t.socket.emit('view', { view: view(7), sentAt: Date.now() });
    const seven = await atBen;
    expect(seven.view.camera.position[0]).toBe(7);

    const handed = next(b.socket, 'control');
    expect(await ack(t.socket, 'control', { pupilId: ada.pupilId })).toEqual({ ok: true });
    expect(await handed).toEqual({ pupilId: ada.pupilId });
    // Now Ada leads (her view reaches the teacher and Ben) and the teacher's views are ignored.
    const atTeacher = next<LessonViewMessage>(t.socket, 'view', viewAt(8));
    const benSees = next<LessonViewMessage>(b.socket, 'view', (m) => m.seq > seven.seq);
    t.socket.emit('view', { view: view(99), sentAt: Date.now() });
    a.socket.emit('view', { view: view(8), sentAt: Date.now() });
    expect((await atTeacher).by).toBe(ada.pupilId);
    expect((await benSees).view.camera.position[0]).toBe(8);

    expect(await ack(t.socket, 'control', { pupilId: 'nobody' })).toEqual({
      ok: false,
      message: expect.any(String),
    });
    expect(await ack(a.socket, 'control', { pupilId: null })).toMatchObject({ ok: false });
    const back = next(a.socket, 'control');
    expect(await ack(t.socket, 'control', { pupilId: null })).toEqual({ ok: true });
    expect(await back).toEqual({ pupilId: null });

    const free = next(b.socket, 'mode');
    expect(await ack(t.socket, 'mode', { mode: 'free' })).toEqual({ ok: true });
    expect(await free).toEqual({ mode: 'free' });
    expect((await enter(one, ben.socketToken)).welcome.mode).toBe('free');
    const follow = next(a.socket, 'mode');
    expect(await ack(t.socket, 'mode', { mode: 'follow' })).toEqual({ ok: true });
    expect(await follow).toEqual({ mode: 'follow' });
    expect(await ack(t.socket, 'mode', { mode: 'chaos' })).toMatchObject({ ok: false });
  });

  it('keeps the teacher’s roster; a removed pupil gets `over` and cannot come back with its token', async () => {
    const { teacher, pupil } = await lesson();
    const t = await enter(one, teacher.socketToken);
    const ada = await pupil('Ada');
    const withAda = next<LessonRosterEvent>(t.socket, 'roster', (r) =>
      r.pupils.some((p) => p.id === ada.pupilId && p.connected),
    );
    const a = await enter(two, ada.socketToken);
    expect((await withAda).pupils.find((p) => p.id === ada.pupilId)).toEqual({
      id: ada.pupilId,
      name: 'Ada',
      signedIn: false,
      connected: true,
    });

    const over = next(a.socket, 'over');
    const gone = next(a.socket, 'disconnect');
    const without = next<LessonRosterEvent>(
      t.socket,
      'roster',
      (r) => !r.pupils.some((p) => p.id === ada.pupilId),
    );
    expect(await ack(t.socket, 'remove', { pupilId: ada.pupilId })).toEqual({ ok: true });
    expect(await over).toEqual({ reason: 'removed' });
    expect(await gone).toBe('io server disconnect');
    await without;
    expect(await refused(one, ada.socketToken)).toBe('removed');
    expect(await refused(two, 'l1.not-a-token')).toBe('invalid');
  });

  it('ends the lesson for everyone, on both processes', async () => {
    const { teacher, pupil, owner } = await lesson();
    const t = await enter(one, teacher.socketToken);
    const ada = await pupil('Ada');
    const ben = await pupil('Ben');
    const a = await enter(two, ada.socketToken);
    const b = await enter(one, ben.socketToken);
    const overs = [t, a, b].map(({ socket }) => next(socket, 'over'));
    expect(await ack(t.socket, 'end', {})).toEqual({ ok: true });
    expect(await Promise.all(overs)).toEqual([{ reason: 'ended' }, { reason: 'ended' }, { reason: 'ended' }]);
    expect(await refused(two, ada.socketToken)).toBe('ended');
    const read = await request(h.app)
      .get(`${owner.base}/lessons/${teacher.lesson.id}`)
      .set(bearer(owner.token));
    expect(read.body.lesson.status).toBe('ended');
  });

  it('the REST end reaches the sockets of another process', async () => {
    const { teacher, pupil, owner } = await lesson();
    const a = await enter(two, (await pupil('Ada')).socketToken);
    const over = next(a.socket, 'over');
    await request(h.app)
      .post(`${owner.base}/lessons/${teacher.lesson.id}/end`)
      .set(bearer(owner.token))
      .expect(200);
    expect(await over).toEqual({ reason: 'ended' });
  });

  it('fans out across processes: teacher on one, pupils on the other, with control', async () => {
    const { teacher, pupil } = await lesson(twin.app);
    const t = await enter(one, teacher.socketToken);
    const seats = await Promise.all(['Ada', 'Ben', 'Cy'].map((name) => pupil(name)));
    const clients = await Promise.all(seats.map((s) => enter(two, s.socketToken)));
    const arrivals = clients.map((c) => next<LessonViewMessage>(c.socket, 'view', viewAt(42)));
    t.socket.emit('view', { view: view(42, 'mitochondrion'), sentAt: Date.now() });
    for (const message of await Promise.all(arrivals)) expect(message.view.selected).toBe('mitochondrion');

    expect(await ack(t.socket, 'control', { pupilId: seats[1]!.pupilId })).toEqual({ ok: true });
    const atTeacher = next<LessonViewMessage>(t.socket, 'view', viewAt(5));
    const atAda = next<LessonViewMessage>(clients[0]!.socket, 'view', viewAt(5));
    clients[1]!.socket.emit('view', { view: view(5), sentAt: Date.now() });
    expect((await atTeacher).by).toBe(seats[1]!.pupilId);
    expect((await atAda).by).toBe(seats[1]!.pupilId);
  });

  it('counts the sockets it holds by role (helix_lesson_sockets), up on connect and down on disconnect', async () => {
    // One registry for this test process's apps: the counts move by what this case connects.
    const held = async () => {
      const { values } = await lessonSockets.get();
      const of = (role: string) => values.find((v) => v.labels.role === role)?.value ?? 0;
      return { teacher: of('teacher'), pupil: of('pupil') };
    };
    const before = await held();
    const { teacher, pupil } = await lesson();
    const t = await enter(one, teacher.socketToken);
    const a = await enter(two, (await pupil('Ada')).socketToken);
    const b = await enter(two, (await pupil('Ben')).socketToken);
    expect(await held()).toEqual({ teacher: before.teacher + 1, pupil: before.pupil + 2 });
    // A connect refused by the handshake is never counted.
    expect(await refused(one, 'l1.not-a-token')).toBe('invalid');
    expect(await held()).toEqual({ teacher: before.teacher + 1, pupil: before.pupil + 2 });

    const roster = next<LessonRosterEvent>(
      t.socket,
      'roster',
      (r) => r.pupils.filter((p) => p.connected).length === 1,
    );
    a.socket.disconnect();
    await roster; // the server has run Ada's disconnect
    expect(await held()).toEqual({ teacher: before.teacher + 1, pupil: before.pupil + 1 });
    const overs = [t, b].map(({ socket }) => next(socket, 'disconnect'));
    expect(await ack(t.socket, 'end', {})).toEqual({ ok: true });
    await Promise.all(overs);
    await expect.poll(held, { timeout: WAIT_MS }).toEqual(before);
  });

  it('ends a lesson nobody leads after LESSON_IDLE_MS (here 1 s)', async () => {
    const { teacher, pupil, owner } = await lesson(idleTwin.app);
    const ada = await pupil('Ada');
    // A pupil waits; nobody leads. (On a slow machine the lesson may be over before its connect.)
    const socket = connect(idle, {
      path: LESSON_SOCKET_PATH,
      transports: ['websocket'],
      auth: { token: ada.socketToken },
      reconnection: false,
    });
    sockets.push(socket);
    const reason = await Promise.race([
      next<{ reason: string }>(socket, 'over').then((o) => o.reason),
      next<Error & { data?: { reason?: string } }>(socket, 'connect_error').then((e) => e.data?.reason),
    ]);
    expect(reason).toBe('idle');
    const row = await h.db.lesson.findUniqueOrThrow({ where: { id: teacher.lesson.id } });
    expect(row).toMatchObject({ status: 'ended', endedReason: 'idle' });
    expect(await refused(idle, teacher.socketToken)).toBe('idle');
    expect(owner.tenant.id).toBe(row.tenantId);
  });

  it('a leader’s view Redis could not take is stored and sent to the class once Redis answers again', async () => {
    const cut = await h.twin();
    try {
      const base = await serve(cut.app);
      const { teacher, pupil } = await lesson();
      const t = await enter(base, teacher.socketToken);
      const ada = await pupil('Ada');
      const a = await enter(one, ada.socketToken);
      const first = next<LessonViewMessage>(a.socket, 'view', viewAt(21));
      t.socket.emit('view', { view: view(21), sentAt: Date.now() });
      const stored = await first;

      // Listening from now on: the last view may reach the class at any point after this.
      const last = next<LessonViewMessage>(a.socket, 'view', viewAt(23));
      // The teacher's process loses its Redis command connection: its next views cannot be stored.
      // (disconnect() only starts closing: the status stays 'ready' until the socket has closed.)
      const closed = once(cut.deps.redis, 'end');
      cut.deps.redis.disconnect();
      await closed;
      t.socket.emit('view', { view: view(22), sentAt: Date.now() });
      t.socket.emit('view', { view: view(23, 'nucleus'), sentAt: Date.now() });
      // A teacher event after the views, answered once they were handled: Redis refuses it too.
      expect(await ack(t.socket, 'mode', { mode: 'follow' })).toMatchObject({ ok: false });

      // Redis answers again; the teacher sends nothing more: the class still ends on its last view.
      await cut.deps.redis.connect();
      const arrived = await last;
      expect(arrived).toMatchObject({ by: 'teacher', view: { selected: 'nucleus' } });
      expect(arrived.seq).toBeGreaterThan(stored.seq);
      const late = await enter(two, (await pupil('Ben')).socketToken);
      expect(late.welcome.view).toEqual(arrived);
    } finally {
      await lessonRealtimeOf(cut.app).close();
      await cut.close();
    }
  });

  it('a stopping process closes its sockets without a word: the client reconnects elsewhere to the current state', async () => {
    const stopping = await h.twin();
    try {
      const base = await serve(stopping.app);
      const { teacher, pupil } = await lesson();
      const t = await enter(one, teacher.socketToken);
      const ada = await pupil('Ada');
      const a = await enter(base, ada.socketToken);
      const seen = next<LessonViewMessage>(a.socket, 'view', viewAt(11));
      t.socket.emit('view', { view: view(11), sentAt: Date.now() });
      const latest = await seen;
      const gone = next(a.socket, 'disconnect');
      await lessonRealtimeOf(stopping.app).close();
      // 'transport close' (not 'io server disconnect'): socket.io's client reconnects by itself.
      expect(await gone).toBe('transport close');
      expect((await enter(two, ada.socketToken)).welcome.view).toEqual(latest);
    } finally {
      await stopping.close();
    }
  });
});
