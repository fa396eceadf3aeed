/**
 * The viewer in a live lesson's frame (mode 'lesson', src/lesson/), in Chromium. A test page on the
 * portal's origin plays the lesson page: it frames the viewer and talks to it by postMessage (role,
 * apply, status; the viewer's lesson-view reports), as the portal's lesson pages do with the socket
 * behind them. The same origin plays the API's GET /api/viewer/model for mode 'lesson' (answered
 * like the portal's modal, with the portal viewer's features) and serves the demo models.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildDemoModels } from '@helix/demo-content/build-demo-models';
import { EMBED_FLAGS } from '@helix/shared/embed';
import { ViewerLessonMessage, type LessonFrameMessage, type LessonView } from '@helix/shared/lessons';
import { MSG } from '@helix/shared/messages';
import { launchChromium } from '@helix/stack/chromium';
import { failOnPageErrors } from '@helix/stack/page-errors';
import type { Browser, Frame, Page } from 'playwright-core';
import sirv from 'sirv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createViewerServer } from '../src/serve.ts';
import { distDir, ensureViewerBuilt } from './support/viewer-build.ts';

let browser: Browser;
let portalServer: http.Server;
let viewerServer: http.Server;
let portalOrigin = '';
let viewerOrigin = '';
let modelsDir = '';
/** The API's lookups for mode 'lesson', by seat token (one per frame load). */
const lessonLookups = new Map<string, number>();

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

/**
 * The lesson page: frames the viewer; window.toViewer(message) posts to it (to the viewer's origin),
 * window.fromViewer holds what the viewer posted (from the frame's window and origin only).
 */
const lessonPage = (frameSrc: string, viewer: string) => `<!doctype html>
<html lang="en"><title>Lesson</title>
<body style="margin:0">
<iframe id="viewer" title="Lesson model" style="border:0;width:800px;height:560px" src="${frameSrc}"></iframe>
<script>
  const frame = document.getElementById('viewer');
  window.fromViewer = [];
  window.addEventListener('message', (event) => {
    if (event.source === frame.contentWindow && event.origin === ${JSON.stringify(viewer)}) window.fromViewer.push(event.data);
  });
  window.toViewer = (message) => frame.contentWindow.postMessage(message, ${JSON.stringify(viewer)});
</script>
</body>`;

beforeAll(async () => {
  modelsDir = await mkdtemp(path.join(tmpdir(), 'helix-viewer-lesson-'));
  await Promise.all([ensureViewerBuilt(), buildDemoModels(modelsDir, { thumbnails: false })]);
  const serveModels = sirv(modelsDir, {
    dev: true,
    setHeaders: (res) => res.setHeader('Access-Control-Allow-Origin', '*'),
  });
  portalServer = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/api/viewer/model') {
      const q = url.searchParams;
      const seat = q.get('subscription') ?? '';
      const cors = { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/json' };
      if (
        q.get('currentmode') !== 'lesson' ||
        q.get('model') !== 'animal-cell' ||
        !seat.startsWith('seat-')
      ) {
        res
          .writeHead(404, cors)
          .end(JSON.stringify({ statusCode: 404, error: 'NOT_FOUND', message: 'Not found' }));
        return;
      }
      lessonLookups.set(seat, (lessonLookups.get(seat) ?? 0) + 1);
      // The portal viewer's features (the modal's), panels open so the test reaches them.
      res.writeHead(200, cors).end(
        JSON.stringify({
          name: 'Animal cell',
          glbUrl: `${portalOrigin}/animal-cell.glb`,
          settings: EMBED_FLAGS.filter((f) => f !== 'hide_modal'),
          branding: {
            backgroundColor: null,
            primaryColor: '#5f51fb',
            modelBgLogo: null,
            modelLoadingLogo: null,
          },
        }),
      );
      return;
    }
    if (url.pathname === '/lesson.html') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(lessonPage(url.searchParams.get('frame') ?? '', viewerOrigin));
      return;
    }
    serveModels(req, res, () => void res.writeHead(404).end());
  });
  portalOrigin = await listen(portalServer);
  // A production viewer (no `src`): the model comes from the API's lookup, as in a real lesson.
  viewerServer = createViewerServer({ distDir, apiUrl: portalOrigin });
  viewerOrigin = await listen(viewerServer);
  browser = failOnPageErrors(await launchChromium());
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((r) => viewerServer?.close(r));
  await new Promise((r) => portalServer?.close(r));
  if (modelsDir) await rm(modelsDir, { recursive: true, force: true });
});

type Vec3 = [number, number, number];
/** A lesson page message without its `source` (send() adds it), each kind kept apart. */
type PageMessage = LessonFrameMessage extends infer M
  ? M extends unknown
    ? Omit<M, 'source'>
    : never
  : never;
interface Lesson {
  page: Page;
  frame: Frame;
  send: (message: PageMessage) => Promise<void>;
  /** The viewer's lesson-view reports so far, checked against the contract. */
  reports: () => Promise<LessonView[]>;
  state: () => Promise<Window['__viewer']>;
  /** Waits until the viewer has drawn `n` more animation frames (no clock involved). */
  frames: (n?: number) => Promise<void>;
  drag: (dx: number, dy: number) => Promise<void>;
}

/** The lesson page with the viewer framed in it, once the viewer said it is ready. */
async function openLesson(
  seat: string,
  reducedMotion: 'reduce' | 'no-preference' = 'no-preference',
): Promise<Lesson> {
  const context = await browser.newContext({ viewport: { width: 820, height: 600 }, reducedMotion });
  const page = await context.newPage();
  const frameSrc = `${viewerOrigin}/?${new URLSearchParams({ model: 'animal-cell', subscription: seat, currentmode: 'lesson' })}`;
  await page.goto(`${portalOrigin}/lesson.html?frame=${encodeURIComponent(frameSrc)}`);
  await page.waitForFunction(
    () =>
      (window as unknown as { fromViewer: { type?: string }[] }).fromViewer.some((m) => m.type === 'ready'),
    null,
    { timeout: 60_000, polling: 100 },
  );
  const frame = page.frames().find((f) => f.url().startsWith(viewerOrigin))!;
  const lesson: Lesson = {
    page,
    frame,
    send: (message) =>
      page.evaluate((m) => (window as unknown as { toViewer: (m: unknown) => void }).toViewer(m), {
        source: 'helix-lesson',
        ...message,
      }),
    reports: async () => {
      const all = await page.evaluate(
        () => (window as unknown as { fromViewer: { type?: string }[] }).fromViewer,
      );
      return all.filter((m) => m.type === 'lesson-view').map((m) => ViewerLessonMessage.parse(m).view);
    },
    state: () => frame.evaluate(() => window.__viewer),
    frames: (n = 3) =>
      frame.evaluate(
        (count) =>
          new Promise<void>((resolve) => {
            const step = (left: number) => (left ? requestAnimationFrame(() => step(left - 1)) : resolve());
            step(count);
          }),
        n,
      ),
    drag: async (dx, dy) => {
      // Over the model, right of the panels (the frame is at the page's top left).
      await page.mouse.move(560, 260);
      await page.mouse.down();
      await page.mouse.move(560 + dx, 260 + dy, { steps: 8 });
      await page.mouse.up();
    },
  };
  return lesson;
}

/** Hang detectors for the polls (SwiftShader on a shared machine), not speed checks. */
const POLL = { timeout: 30_000, interval: 100 };

/** Serious and critical accessibility problems in the lesson page and the viewer frame. */
async function accessibilityProblems(page: Page): Promise<string[]> {
  const axe = await new AxeBuilder({ page }).analyze();
  return axe.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

const distance = (a: number[], b: number[]) => Math.hypot(...a.map((v, i) => v - b[i]!));

/** A teacher's view of the animal cell, from the follower's own start (turned a quarter, closer). */
function teachersView(start: Window['__viewer'], extra: Partial<LessonView> = {}): LessonView {
  const [x, y, z] = start.cameraPosition as Vec3;
  return {
    camera: { position: [z * 0.8, y * 0.8, -x * 0.8], target: [0, 0, 0] },
    selected: 'Nucleus',
    // An unknown part is ignored.
    hiddenParts: ['Cell membrane', 'Chloroplast'],
    cutaway: { axis: 'x', offset: 0.25 },
    labels: true,
    colours: { Mitochondria: '#1e88e5' },
    pointer: [0.1, 0.2, 0.3],
    ...extra,
  };
}

describe('the viewer in a live lesson (mode lesson)', () => {
  it('leads: reports its view when the camera moves, a part is selected and the lesson tools are used', async () => {
    // Reduced motion: no glide after the drag (on a software renderer it lasts many seconds).
    const lesson = await openLesson('seat-lead', 'reduce');
    const { page, frame } = lesson;
    expect(lessonLookups.get('seat-lead')).toBe(1);
    const start = await lesson.state();
    expect(start).toMatchObject({ mode: 'lesson', ready: true, centred: false, lessonRole: 'follow' });
    // Not told to lead yet: nothing is reported.
    await lesson.frames();
    expect(await lesson.reports()).toEqual([]);

    await lesson.send({ type: 'role', role: 'lead' });
    // The whole view at once, for the class to start from.
    await expect.poll(async () => (await lesson.reports()).length, POLL).toBeGreaterThan(0);
    const first = (await lesson.reports())[0]!;
    expect(distance(first.camera.position, start.cameraPosition)).toBeLessThan(1e-6);
    expect(first).toMatchObject({
      selected: null,
      hiddenParts: [],
      cutaway: null,
      colours: {},
      pointer: null,
    });

    await lesson.drag(120, 30);
    await expect
      .poll(
        async () => distance((await lesson.reports()).at(-1)!.camera.position, first.camera.position),
        POLL,
      )
      .toBeGreaterThan(0.1);
    // The last report is where the camera came to rest.
    await expect
      .poll(async () => {
        const [state, last] = [await lesson.state(), (await lesson.reports()).at(-1)!];
        return distance(last.camera.position, state.cameraPosition);
      }, POLL)
      .toBeLessThan(1e-9);

    const contents = frame.locator('section[data-flag="table_of_content"]');
    await contents.getByRole('button', { name: 'Nucleus', exact: true }).click();
    await expect.poll(async () => (await lesson.reports()).at(-1)!.selected, POLL).toBe('Nucleus');

    await frame.getByRole('checkbox', { name: 'Cell membrane' }).uncheck();
    await expect
      .poll(async () => (await lesson.reports()).at(-1)!.hiddenParts, POLL)
      .toEqual(['Cell membrane']);

    // The pointer: on, it starts at the selected part; moving over the model moves it; off, it is gone.
    const pointerButton = frame.getByRole('button', { name: MSG.viewerPointer, exact: true });
    await pointerButton.click();
    await expect.poll(async () => (await lesson.reports()).at(-1)!.pointer, POLL).not.toBeNull();
    const atPart = (await lesson.reports()).at(-1)!.pointer!;
    const cameraBefore = (await lesson.state()).cameraPosition;
    // The selected part is at the orbit target: the middle of the frame beside the panels.
    const middle = await frame.evaluate(() => {
      const canvas = document.querySelector('.stage > canvas')!.getBoundingClientRect();
      const dock = document.querySelector('.dock')!.getBoundingClientRect();
      return { x: (dock.right + canvas.right) / 2, y: canvas.top + canvas.height / 2 };
    });
    await page.mouse.move(middle.x, middle.y);
    await page.mouse.down();
    await page.mouse.move(middle.x + 10, middle.y + 10, { steps: 4 });
    await page.mouse.up();
    await expect
      .poll(async () => {
        const p = (await lesson.reports()).at(-1)!.pointer;
        return p ? distance(p, atPart) : 0;
      }, POLL)
      .toBeGreaterThan(1e-3);
    // Pointing does not turn the model.
    expect(distance((await lesson.state()).cameraPosition, cameraBefore)).toBeLessThan(1e-9);
    await pointerButton.click();
    await expect.poll(async () => (await lesson.reports()).at(-1)!.pointer, POLL).toBeNull();

    // The cut-away, by keyboard: the Z axis, then the slider down from the middle.
    await frame.getByRole('radio', { name: 'Z' }).check();
    await expect
      .poll(async () => (await lesson.reports()).at(-1)!.cutaway, POLL)
      .toEqual({ axis: 'z', offset: 0 });
    await frame.getByRole('slider', { name: MSG.viewerCutawayPosition }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect
      .poll(async () => (await lesson.reports()).at(-1)!.cutaway, POLL)
      .toEqual({ axis: 'z', offset: -0.04 });

    // The selected part's colour, and its own colour back.
    await frame.getByRole('button', { name: MSG.viewerColourNames.red }).click();
    await expect
      .poll(async () => (await lesson.reports()).at(-1)!.colours, POLL)
      .toEqual({ Nucleus: '#e53935' });
    await frame.getByRole('button', { name: MSG.viewerPartColourOwn }).click();
    await expect.poll(async () => (await lesson.reports()).at(-1)!.colours, POLL).toEqual({});
    await frame.getByRole('button', { name: MSG.viewerColourNames.green }).click();
    await expect
      .poll(async () => (await lesson.reports()).at(-1)!.colours, POLL)
      .toEqual({ Nucleus: '#43a047' });

    // What the viewer shows is what it reported.
    const state = await lesson.state();
    expect(state).toMatchObject({
      selected: 'Nucleus',
      hiddenParts: ['Cell membrane'],
      cutaway: { axis: 'z', offset: -0.04 },
      colours: { Nucleus: '#43a047' },
      pointer: null,
    });
    expect(state.lessonViewsPosted).toBe((await lesson.reports()).length);
    expect(await accessibilityProblems(page)).toEqual([]);
    await page.context().close();
  }, 180_000);

  it('follows: shows the latest view handed over and ignores the pupil’s drags, keys and clicks', async () => {
    const lesson = await openLesson('seat-follow');
    const { frame, page } = lesson;
    const start = await lesson.state();
    await lesson.send({ type: 'role', role: 'follow' });
    const view = teachersView(start);
    // A burst of views (a slow tablet's backlog): only the latest is shown, and not each in turn.
    await page.evaluate(
      ({ view, count }) => {
        const toViewer = (window as unknown as { toViewer: (m: unknown) => void }).toViewer;
        for (let i = count; i >= 0; i--) {
          const [x, y, z] = view.camera.position;
          toViewer({
            source: 'helix-lesson',
            type: 'apply',
            view: { ...view, camera: { ...view.camera, position: [x + i * 0.01, y, z] } },
          });
        }
      },
      { view, count: 30 },
    );
    await expect
      .poll(async () => distance((await lesson.state()).cameraPosition, view.camera.position), {
        timeout: 20_000,
      })
      .toBeLessThan(1e-3);
    const shown = await lesson.state();
    expect(shown.lessonViewsApplied).toBeGreaterThanOrEqual(1);
    expect(shown.lessonViewsApplied).toBeLessThan(31);
    expect(distance(shown.cameraTarget, view.camera.target)).toBeLessThan(1e-3);
    expect(shown).toMatchObject({
      lessonRole: 'follow',
      selected: 'Nucleus',
      hiddenParts: ['Cell membrane'],
      cutaway: { axis: 'x', offset: 0.25 },
      labelsVisible: true,
      colours: { Mitochondria: '#1e88e5' },
      pointer: [0.1, 0.2, 0.3],
    });
    // The panels show the leader's view, greyed out.
    const membrane = frame.getByRole('checkbox', { name: 'Cell membrane' });
    expect(await membrane.isChecked()).toBe(false);
    expect(await membrane.getAttribute('aria-disabled')).toBe('true');
    // The lesson's tools make room for the model while following.
    expect(await frame.locator('section[data-flag="lesson"]').isHidden()).toBe(true);
    expect(await frame.getByTestId('lesson-status').textContent()).toBe(MSG.viewerLessonFollowing);
    // A follower reports nothing.
    expect(await lesson.reports()).toEqual([]);
    expect(await accessibilityProblems(page)).toEqual([]);

    // The pupil drags, presses keys and picks another part: the view stays the leader's.
    await lesson.drag(-150, 40);
    await frame.locator('canvas').first().focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('+');
    await page.keyboard.press('r');
    await frame
      .locator('section[data-flag="table_of_content"]')
      .getByRole('button', { name: 'Mitochondria', exact: true })
      .click({ force: true }); // aria-disabled: readable, but it selects nothing
    await membrane.click({ force: true });
    await lesson.frames(5);
    const after = await lesson.state();
    expect(distance(after.cameraPosition, view.camera.position)).toBeLessThan(1e-3);
    expect(after.selected).toBe('Nucleus');
    expect(after.hiddenParts).toEqual(['Cell membrane']);
    expect(await membrane.isChecked()).toBe(false);
    expect(after.lessonViewsApplied).toBe(shown.lessonViewsApplied);
    await page.context().close();
  }, 180_000);

  it('free: the pupil turns the model; called back, it shows the latest view handed over meanwhile', async () => {
    // Reduced motion: views are set at once, not eased.
    const lesson = await openLesson('seat-free', 'reduce');
    const start = await lesson.state();
    const view = teachersView(start);
    await lesson.send({ type: 'apply', view });
    await expect.poll(async () => (await lesson.state()).lessonViewsApplied, POLL).toBe(1);
    expect(distance((await lesson.state()).cameraPosition, view.camera.position)).toBeLessThan(1e-6);

    await lesson.send({ type: 'role', role: 'free' });
    await lesson.drag(150, 0);
    await expect
      .poll(async () => distance((await lesson.state()).cameraPosition, view.camera.position), POLL)
      .toBeGreaterThan(0.1);
    // Views handed over while free are kept, not shown.
    const later = teachersView(start, {
      camera: {
        position: [start.cameraPosition[0]! * 0.6, 2, start.cameraPosition[2]! * 0.6],
        target: [0, 0.2, 0],
      },
      selected: 'Mitochondria',
      cutaway: null,
      pointer: null,
    });
    await lesson.send({ type: 'apply', view: later });
    await lesson.frames(5);
    const free = await lesson.state();
    expect(free).toMatchObject({ lessonRole: 'free', lessonViewsApplied: 1, selected: 'Nucleus' });
    expect(await lesson.reports()).toEqual([]);

    // "All eyes on me": back to follow, the latest view at once.
    await lesson.send({ type: 'role', role: 'follow' });
    await expect.poll(async () => (await lesson.state()).lessonViewsApplied, POLL).toBe(2);
    const back = await lesson.state();
    expect(distance(back.cameraPosition, later.camera.position)).toBeLessThan(1e-6);
    expect(distance(back.cameraTarget, later.camera.target)).toBeLessThan(1e-6);
    expect(back).toMatchObject({ selected: 'Mitochondria', cutaway: null, pointer: null });
    await lesson.page.context().close();
  }, 180_000);

  it("a teacher's reports, relayed as the lesson page does, put a pupil's viewer on the teacher's view", async () => {
    const [teacher, pupil] = await Promise.all([
      openLesson('seat-teacher', 'reduce'),
      openLesson('seat-pupil'),
    ]);
    await teacher.send({ type: 'role', role: 'lead' });
    await pupil.send({ type: 'role', role: 'follow' });
    await teacher.drag(-100, 60);
    await teacher.frame
      .locator('section[data-flag="table_of_content"]')
      .getByRole('button', { name: 'Golgi apparatus', exact: true })
      .click();
    await teacher.frame.getByRole('button', { name: 'Labels' }).click();
    // The report of both (reports are paced: the selection's can be posted before the labels' click).
    await expect
      .poll(async () => {
        const last = (await teacher.reports()).at(-1);
        return { selected: last?.selected, labels: last?.labels };
      }, POLL)
      .toEqual({ selected: 'Golgi apparatus', labels: false });
    // The relay: every report, in order, as the socket would deliver them (the pupil shows the latest).
    for (const view of await teacher.reports()) await pupil.send({ type: 'apply', view });
    const taught = await teacher.state();
    await expect
      .poll(async () => distance((await pupil.state()).cameraPosition, taught.cameraPosition), POLL)
      .toBeLessThan(1e-3);
    const followed = await pupil.state();
    expect(distance(followed.cameraTarget, taught.cameraTarget)).toBeLessThan(1e-3);
    expect(followed).toMatchObject({ selected: 'Golgi apparatus', labelsVisible: false });
    await Promise.all([teacher.page.context().close(), pupil.page.context().close()]);
  }, 180_000);

  it('shows "reconnecting" over the model without blocking a free pupil, hides it when live, and ends', async () => {
    const lesson = await openLesson('seat-status');
    const status = lesson.frame.getByTestId('lesson-status');
    await lesson.send({ type: 'role', role: 'free' });
    await lesson.send({ type: 'status', status: 'reconnecting' });
    await expect.poll(() => status.textContent(), POLL).toBe(MSG.lessonReconnecting);
    expect(await status.isVisible()).toBe(true);
    expect((await lesson.state()).lessonStatus).toBe('reconnecting');
    // The pupil still turns the model through it.
    const before = (await lesson.state()).cameraPosition;
    await lesson.drag(-160, 0);
    await expect
      .poll(async () => distance((await lesson.state()).cameraPosition, before), POLL)
      .toBeGreaterThan(0.1);

    await lesson.send({ type: 'status', status: 'live' });
    await expect.poll(() => status.isVisible(), POLL).toBe(false);
    // Following: the small "following" line, no reconnecting card.
    await lesson.send({ type: 'role', role: 'follow' });
    await expect.poll(() => status.textContent(), POLL).toBe(MSG.viewerLessonFollowing);

    await lesson.send({ type: 'status', status: 'over' });
    await expect.poll(() => status.textContent(), POLL).toBe(MSG.lessonOver);
    // Over: the model is the pupil's to turn, and the lesson's messages are no longer taken.
    await lesson.send({ type: 'role', role: 'lead' });
    await lesson.frames(5);
    expect(await lesson.state()).toMatchObject({ lessonStatus: 'over', lessonRole: 'free' });
    expect(await lesson.reports()).toEqual([]);
    await lesson.page.context().close();
  }, 180_000);
});
