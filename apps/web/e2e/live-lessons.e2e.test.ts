import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser } from './support/browser.ts';
import {
  POLL,
  distance,
  join,
  pupilsMatch,
  selectPart,
  startLesson,
  turn,
  viewerState,
  type Seat,
} from './support/lesson-class.ts';

/**
 * Issue 32, live lessons, as a class uses them: the demo school's owner (Educator: live lessons, the
 * Admin role: Lesson.lead) starts a lesson from the viewer modal; three pupils join from their own
 * tablets (separate browser contexts at 820 px, no account) with the code; the teacher turns the model
 * and selects a part, and every pupil's viewer shows the same camera and selection; a pupil whose
 * Wi-Fi drops sees "Reconnecting…" and, back online, the teacher's current view at once. (The same
 * across the cluster's two API processes: cluster.e2e.test.ts.)
 */
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
    const started = await startLesson(browser);
    teacher = started;
    const { page, code, frame: teacherFrame } = started;

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
    await turn(page, 160);
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
    await turn(page, -220);
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
