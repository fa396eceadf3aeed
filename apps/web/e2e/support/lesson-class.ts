import { expect } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { DEMO, expectPath, logIn } from './accounts.ts';
import { newPage } from './browser.ts';

/**
 * A live lesson's class in the browser (issue 32; live-lessons.e2e.test.ts, cluster.e2e.test.ts): the
 * teacher and the pupils' tablets (820 px), joining, turning the model, picking a part, and comparing
 * what every tablet's viewer shows with the teacher's.
 */
const MODEL = 'Animal cell';
const MODEL_FRAME = `iframe[title="${MODEL} viewer"]`;
const TABLET = { width: 820, height: 1180 };
/** Liveness bounds of the waits (a loaded machine), not speed checks. */
export const POLL = { timeout: 60_000, interval: 200 };

export interface Seat {
  context: BrowserContext;
  page: Page;
  frame: Frame;
}

interface ViewerState {
  cameraPosition: number[];
  cameraTarget: number[];
  selected: string | null;
  lessonRole: string | null;
}

export const viewerState = (frame: Frame) =>
  frame.evaluate(() => {
    const v = (window as unknown as { __viewer: ViewerState }).__viewer;
    return {
      cameraPosition: v.cameraPosition,
      cameraTarget: v.cameraTarget,
      selected: v.selected,
      lessonRole: v.lessonRole,
    };
  });

/** The distance between two points (the cameras are compared in the model's world units). */
export const distance = (a: number[], b: number[]) => Math.hypot(...a.map((x, i) => x - (b[i] ?? 0)));

async function viewerFrame(page: Page): Promise<Frame> {
  const handle = await page.locator(MODEL_FRAME).elementHandle({ timeout: 60_000 });
  const frame = (await handle!.contentFrame())!;
  await frame.waitForFunction(
    () => ['ready', 'error'].includes(document.body.dataset.viewerState ?? ''),
    null,
    { timeout: 90_000 },
  );
  expect(await frame.evaluate(() => document.body.dataset.viewerState)).toBe('ready');
  return frame;
}

async function tablet(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const seat = await newPage(browser, { viewport: TABLET, reducedMotion: 'reduce' });
  seat.page.setDefaultTimeout(30_000);
  return seat;
}

/**
 * The demo school's owner (Educator: live lessons, Admin: Lesson.lead) starts a lesson on MODEL from
 * the viewer modal, on a tablet; answers with the join code once the teacher's connection is live.
 */
export async function startLesson(browser: Browser): Promise<{
  context: BrowserContext;
  page: Page;
  frame: Frame;
  code: string;
}> {
  const { context, page } = await tablet(browser);
  await logIn(page, DEMO.owner.email, DEMO.owner.password);
  await expectPath(page, '/user/home');
  await page
    .getByRole('button', { name: `Open ${MODEL}` })
    .first()
    .click();
  await page.getByRole('dialog', { name: MODEL }).waitFor();
  await page.getByRole('button', { name: 'Start live lesson' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/user/lessons/'));
  const code = (await page.getByTestId('lesson-code').textContent())!.replace(/\s/g, '');
  expect(code).toMatch(/^[A-Z0-9]{6}$/);
  await expect
    .poll(() => page.getByTestId('lesson-connection').getAttribute('data-status'), POLL)
    .toBe('live');
  const frame = await viewerFrame(page);
  await expect.poll(async () => (await viewerState(frame)).lessonRole).toBe('lead');
  return { context, page, frame, code };
}

/** A pupil joins from the link's code with a name of their own. */
export async function join(browser: Browser, code: string, name: string): Promise<Seat> {
  const { context, page } = await tablet(browser);
  await page.goto(`/join/${code}`);
  await expect.poll(() => page.getByLabel('Lesson code').inputValue(), POLL).toBe(code);
  await page.getByLabel('Your name').fill(name);
  await page.getByRole('button', { name: 'Join', exact: true }).click();
  await page
    .waitForURL((url) => url.pathname.startsWith('/lesson/'))
    .catch(async (error: unknown) => {
      // Say why: the form's refusal or its field messages.
      const said = await page
        .locator('[role="alert"], [data-testid="join-refused"], .ant-form-item-explain')
        .allTextContents();
      throw new Error(`${name} did not join (${page.url()}): ${said.join(' | ') || 'nothing said'}`, {
        cause: error,
      });
    });
  const state = page.getByTestId('lesson-state');
  await expect.poll(() => state.getAttribute('data-status'), POLL).toBe('live');
  expect(await page.getByTestId('lesson-pupil-name').textContent()).toContain(name);
  return { context, page, frame: await viewerFrame(page) };
}

/** Drags across the teacher's model (OrbitControls turn the camera). */
export async function turn(page: Page, dx: number) {
  const box = (await page.locator(MODEL_FRAME).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + 20, { steps: 10 });
  await page.mouse.up();
}

/** Picks a part in the teacher's table of contents (opened first: a tablet's frame starts compact). */
export async function selectPart(frame: Frame, name: string) {
  const contents = frame.locator('section[data-flag="table_of_content"]');
  const header = contents.locator('.panel-header');
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await contents.getByRole('button', { name, exact: true }).click();
  await expect.poll(async () => (await viewerState(frame)).selected, POLL).toBe(name);
}

/** Every pupil's camera within `tolerance` of the teacher's, and the same selection. */
export async function pupilsMatch(teacher: Frame, pupils: Seat[], tolerance = 1e-2) {
  const lead = await viewerState(teacher);
  for (const pupil of pupils) {
    await expect
      .poll(async () => {
        const seen = await viewerState(pupil.frame);
        return (
          distance(seen.cameraPosition, lead.cameraPosition) < tolerance &&
          distance(seen.cameraTarget, lead.cameraTarget) < tolerance &&
          seen.selected === lead.selected
        );
      }, POLL)
      .toBe(true);
  }
  return lead;
}
