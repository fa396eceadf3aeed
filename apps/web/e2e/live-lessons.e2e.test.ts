import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Frame, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { DEMO, expectPath, logIn } from './support/accounts.ts';
import { launchBrowser, newPage } from './support/browser.ts';

/**
 * Issue 32, live lessons, as a class uses them: the demo school's owner (Educator: live lessons, the
 * Admin role: Lesson.lead) starts a lesson from the viewer modal; three pupils join from their own
 * tablets (separate browser contexts at 820 px, no account) with the code; the teacher turns the model
 * and selects a part, and every pupil's viewer shows the same camera and selection; a pupil whose
 * Wi-Fi drops sees "Reconnecting…" and, back online, the teacher's current view at once.
 */
const MODEL = 'Animal cell';
const TABLET = { width: 820, height: 1180 };
/** Liveness bounds of the waits (a loaded machine), not speed checks. */
const POLL = { timeout: 60_000, interval: 200 };

interface Seat {
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

const viewerState = (frame: Frame) =>
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
const distance = (a: number[], b: number[]) => Math.hypot(...a.map((x, i) => x - (b[i] ?? 0)));

async function viewerFrame(page: Page): Promise<Frame> {
  const handle = await page.locator(`iframe[title="${MODEL} viewer"]`).elementHandle({ timeout: 60_000 });
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

/** A pupil joins from the link's code with a name of their own. */
async function join(browser: Browser, code: string, name: string): Promise<Seat> {
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
async function turn(page: Page, frameLocator: string, dx: number) {
  const box = (await page.locator(frameLocator).boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x + dx, y + 20, { steps: 10 });
  await page.mouse.up();
}

/** Picks a part in the teacher's table of contents (opened first: a tablet's frame starts compact). */
async function selectPart(frame: Frame, name: string) {
  const contents = frame.locator('section[data-flag="table_of_content"]');
  const header = contents.locator('.panel-header');
  if ((await header.getAttribute('aria-expanded')) !== 'true') await header.click();
  await contents.getByRole('button', { name, exact: true }).click();
  await expect.poll(async () => (await viewerState(frame)).selected, POLL).toBe(name);
}

/** Every pupil's camera within `tolerance` of the teacher's, and the same selection. */
async function pupilsMatch(teacher: Frame, pupils: Seat[], tolerance = 1e-2) {
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

describe('a live lesson: the teacher leads, the class follows', () => {
  let browser: Browser;
  let teacher: { context: BrowserContext; page: Page };
  let pupils: Seat[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const pupil of pupils) await pupil.context.close().catch(() => undefined);
    await teacher?.context.close().catch(() => undefined);
    await browser?.close();
  });

  it('starts from the viewer, three tablets join and mirror the camera and the selected part; a dropped tablet resyncs', async () => {
    teacher = await tablet(browser);
    const { page } = teacher;
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
    const teacherFrame = await viewerFrame(page);
    expect((await viewerState(teacherFrame)).lessonRole).toBe('lead');

    pupils = [];
    for (const name of ['Ada', 'Brook', 'Cy &amp; Dee']) pupils.push(await join(browser, code, name));
    // The roster: three pupils, connected; a name typed with an entity is text, not HTML (a name
    // with angle brackets is refused by the form: JoinLesson).
    await expect.poll(() => page.getByTestId('lesson-pupil').count(), POLL).toBe(3);
    await expect
      .poll(() => page.locator('[data-testid="lesson-pupil"][data-connected="true"]').count(), POLL)
      .toBe(3);
    await expect.poll(() => page.getByText('Cy &amp; Dee').count(), POLL).toBeGreaterThan(0);
    for (const pupil of pupils) expect((await viewerState(pupil.frame)).lessonRole).toBe('follow');

    // The teacher turns the model and selects the nucleus: every tablet shows the same.
    await turn(page, `iframe[title="${MODEL} viewer"]`, 160);
    await selectPart(teacherFrame, 'Nucleus');
    const first = await pupilsMatch(teacherFrame, pupils);
    console.log('teacher camera', first.cameraPosition.map((n) => n.toFixed(3)).join(', '));

    // Ada's tablet drops off the Wi-Fi: she sees that it reconnects, not a frozen model.
    const [ada, ...others] = pupils as [Seat, ...Seat[]];
    await ada.context.setOffline(true);
    await expect
      .poll(() => ada.page.getByTestId('lesson-state').getAttribute('data-status'), POLL)
      .toBe('reconnecting');
    await expect.poll(() => ada.page.getByText(MSG.lessonReconnecting).count(), POLL).toBeGreaterThan(0);
    // Meanwhile the teacher turns the model again and picks another part.
    await turn(page, `iframe[title="${MODEL} viewer"]`, -220);
    await selectPart(teacherFrame, 'Mitochondria');
    await pupilsMatch(teacherFrame, others);
    // Back online: the current view at once (welcome), not the one she missed.
    await ada.context.setOffline(false);
    await expect
      .poll(() => ada.page.getByTestId('lesson-state').getAttribute('data-status'), POLL)
      .toBe('live');
    const second = await pupilsMatch(teacherFrame, pupils);
    expect(distance(second.cameraPosition, first.cameraPosition)).toBeGreaterThan(1e-2);
    expect(second.selected).toBe('Mitochondria');

    // The teacher ends the lesson: every tablet says so.
    await page.getByRole('button', { name: 'End lesson' }).click();
    await page.getByRole('button', { name: 'Yes, end it' }).click();
    for (const pupil of pupils) {
      await pupil.page.getByTestId('lesson-over').waitFor({ timeout: 60_000 });
      expect(await pupil.page.getByTestId('lesson-over').textContent()).toContain(MSG.lessonOver);
    }
  });
});
