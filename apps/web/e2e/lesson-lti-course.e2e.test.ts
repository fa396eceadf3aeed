import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@helix/shared';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { TestLtiPlatform } from '@helix/server/testing/lti-platform';
import { DEMO, logIn } from './support/accounts.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { toolFrame } from './support/lti-course.ts';
import { POLL } from './support/lesson-class.ts';

/**
 * A course's live lesson from its learning platform (issue 32, docs/live-lessons.md "From a course"):
 * the instructor opens the model in the course and gets the viewer under "Start a live lesson"; the
 * start opens Helix in a tab of its own, where the teacher signs in and lands on the lesson; a
 * learner who then opens the same activity in the course lands in that lesson, seated under the name
 * the platform sent, and the teacher sees them in the roster.
 */
const id = randomBytes(3).toString('hex');
const INSTRUCTOR = 'http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor';
const MODEL = 'Animal cell';
const TABLET = { width: 820, height: 1180 };

describe('a live lesson started from a course', () => {
  let browser: Browser;
  let db: Db;
  let platform: TestLtiPlatform;
  let custom: Record<string, string>;
  const course = { id: `course-${id}`, title: `Biology 7B ${id}`, label: 'BIO7B' };

  beforeAll(async () => {
    browser = await launchBrowser();
    db = createTestDb(inject('databaseUrl'));
    platform = await TestLtiPlatform.start({ toolUrl: new URL(inject('apiUrl')).origin });
    // The demo school (Educator: live lessons) has registered the platform (lti.e2e walks that form).
    const owner = await db.user.findFirstOrThrow({ where: { email: DEMO.owner.email } });
    await db.ltiPlatform.create({
      data: { tenantId: owner.tenantId, ...platform.registration(`Moodle ${id}`) },
    });
    const model = await db.model.findFirstOrThrow({ where: { name: MODEL, deletedAt: null } });
    custom = { helix_model: model.urlModelName };
  });
  afterAll(async () => {
    await platform?.close();
    await browser?.close();
    await db?.$disconnect();
  });

  it('the instructor starts it from the course in a tab of its own; a learner’s launch lands in it', async () => {
    // The instructor opens the activity in the course: the viewer under the start link.
    const lms = await newPage(browser, { viewport: { width: 1280, height: 900 } });
    const taught = platform.prepare({
      kind: 'resource',
      custom,
      context: course,
      roles: [INSTRUCTOR],
      sub: `teacher-${id}`,
      name: 'Ms Rivera',
    });
    await lms.page.goto(`${platform.issuer}/course/${taught}`);
    const frame = await toolFrame(lms.page);
    const start = frame.getByTestId('lti-start-lesson');
    await start.waitFor({ timeout: 30_000 });
    expect(await start.textContent()).toBe(MSG.ltiTeachStart);
    await frame.getByText(course.title).waitFor();
    await frame.locator(`iframe[title="${MODEL}"]`).waitFor();

    // The start opens Helix in a new tab: signed out there, the sign-in comes back to the start.
    const [tab] = await Promise.all([lms.context.waitForEvent('page'), start.click()]);
    await tab.waitForURL((url) => url.pathname.startsWith('/login'), { timeout: 60_000 });
    await logIn(tab, DEMO.owner.email, DEMO.owner.password);
    await tab.waitForURL((url) => /^\/user\/lessons\/(?!start)[^/]+$/.test(url.pathname), {
      timeout: 60_000,
    });
    expect(new URL(tab.url()).search).toBe('');
    const code = (await tab.getByTestId('lesson-code').textContent())!.replace(/\s/g, '');
    expect(code).toMatch(/^[A-Z0-9]{6}$/);
    await expect
      .poll(() => tab.getByTestId('lesson-connection').getAttribute('data-status'), POLL)
      .toBe('live');

    // A learner opens the same activity in the course: the lesson's join page takes the seat at once.
    const learner = await newPage(browser, { viewport: TABLET });
    const learns = platform.prepare({
      kind: 'resource',
      custom,
      context: course,
      sub: `pupil-${id}`,
      name: 'Ada Lovelace',
    });
    await learner.page.goto(`${platform.issuer}/course/${learns}`);
    const seat = await toolFrame(learner.page);
    await seat.waitForURL((url) => url.pathname.startsWith('/lesson/'), { timeout: 60_000 });
    await expect.poll(() => seat.getByTestId('lesson-state').getAttribute('data-status'), POLL).toBe('live');
    expect(await seat.getByTestId('lesson-pupil-name').textContent()).toContain('Ada Lovelace');

    // The teacher sees the course's pupil in the roster.
    await tab.getByTestId('lesson-pupil').filter({ hasText: 'Ada Lovelace' }).waitFor({ timeout: 60_000 });

    // Opening the course's activity again reopens the same lesson (no second one).
    const [again] = await Promise.all([lms.context.waitForEvent('page'), start.click()]);
    await again.waitForURL((url) => /^\/user\/lessons\/(?!start)[^/]+$/.test(url.pathname), {
      timeout: 60_000,
    });
    expect(new URL(again.url()).pathname).toBe(new URL(tab.url()).pathname);

    await tab.getByRole('button', { name: 'End lesson' }).click();
    await tab.getByRole('button', { name: 'Yes, end it' }).click();
    await seat.getByTestId('lesson-over').waitFor({ timeout: 60_000 });
    await learner.context.close();
    await lms.context.close();
  });
});
