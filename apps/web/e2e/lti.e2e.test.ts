import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LTI_CLAIM } from '@helix/shared/schemas/lti';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createTenant, createUser } from '@helix/server/testing/factories';
import { TestLtiPlatform } from '@helix/server/testing/lti-platform';
import { logIn } from './support/accounts.ts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { toolFrame } from './support/lti-course.ts';

/**
 * LTI 1.3 end to end (docs/lti.md), with a learning platform the test runs: the school's owner
 * registers it on the LMS settings page, a teacher picks a model in the deep-linking picker inside the
 * course's frame (the signed answer reaches the platform and checks out with the school's keyset URL),
 * and a pupil's launch of that item opens the viewer in the frame, counted for the class on the
 * owner's statistics page.
 */

const id = randomBytes(3).toString('hex');

describe('LTI 1.3 with a learning platform', () => {
  let browser: Browser;
  let db: Db;
  let platform: TestLtiPlatform;
  let owner: { email: string; password: string };
  let model: { name: string; urlModelName: string };

  beforeAll(async () => {
    browser = await launchBrowser();
    db = createTestDb(inject('databaseUrl'));
    const plan = await db.plan.findUniqueOrThrow({ where: { id: 8 } });
    const tenant = await createTenant(db, { plan, name: `Lakeside School ${id}` });
    const password = `pw-${id}-lti`;
    const user = await createUser(db, { tenant, name: 'Olga Owner', password, roles: ['Admin'] });
    owner = { email: user.email, password };
    model = await db.model.findFirstOrThrow({
      where: { isPublic: true, deletedAt: null, fileKey: { not: null } },
      orderBy: { name: 'asc' },
    });
    platform = await TestLtiPlatform.start({ toolUrl: new URL(inject('apiUrl')).origin });
  });
  afterAll(async () => {
    await platform?.close();
    await browser?.close();
    await db?.$disconnect();
  });

  it('registers the platform, deep-links a model from the picker and opens it for a pupil, counted per class', async () => {
    // The owner registers the platform and reads the keyset URL to give the LMS.
    const { context, page } = await newPage(browser);
    await logIn(page, owner.email, owner.password);
    await page.goto('/user/settings/lti');
    const keyset = page.getByTestId('lti-keyset URL');
    await keyset.waitFor();
    const jwksUrl = (await keyset.textContent())!.trim();
    expect(jwksUrl).toMatch(/\/api\/lti\/jwks\/[a-z0-9-]+$/);
    platform.toolJwksUrl = jwksUrl;
    expect((await page.getByTestId('lti-launch URL').textContent())?.trim()).toMatch(/\/api\/lti\/launch$/);

    await page.getByRole('button', { name: 'Register a platform' }).click();
    const dialog = page.getByRole('dialog');
    const registration = platform.registration('Lakeside Moodle');
    await dialog.getByLabel('Name', { exact: true }).fill(registration.name);
    await dialog.getByLabel('Issuer (platform ID)').fill(registration.issuer);
    await dialog.getByLabel('Client ID').fill(registration.clientId);
    await dialog.locator('#lti-platform_deploymentIds').fill(platform.deploymentId);
    await dialog.locator('#lti-platform_deploymentIds').press('Enter');
    await dialog.getByLabel('Authentication request URL (OIDC)').fill(registration.authLoginUrl);
    await dialog.getByLabel('Access token URL').fill(registration.tokenUrl);
    await dialog.getByLabel('Public keyset URL').fill(registration.keysetUrl);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'Lakeside Moodle', exact: true }).waitFor();
    await page.getByRole('cell', { name: platform.deploymentId, exact: true }).waitFor();
    // The settings page with a platform in its table (accessibility.e2e sees it empty).
    const violations = await seriousViolations(page, '/user/settings/lti');

    // A teacher adds the model through "Select content": the picker in the course's frame.
    const teacher = await newPage(browser);
    const dlHint = platform.prepare({ kind: 'deep-link', acceptMultiple: true, data: `dl-${id}` });
    await teacher.page.goto(`${platform.issuer}/course/${dlHint}`);
    let frame = await toolFrame(teacher.page);
    await frame.getByRole('heading', { name: `Choose models from Lakeside School ${id}` }).waitFor();
    // The picker is a page of Helix's own inside the LMS's frame: axe checks it there.
    violations.push(...(await seriousViolations(teacher.page, 'the deep-linking picker')));
    expect(violations).toEqual([]);
    await frame.getByRole('checkbox', { name: model.name, exact: true }).check();
    await frame.getByRole('button', { name: 'Add to course' }).click();
    await frame.waitForURL(`${platform.issuer}/deep-link-return`);
    await frame.getByRole('listitem').filter({ hasText: model.name }).waitFor();
    expect(platform.deepLinkResults).toHaveLength(1);
    const answer = platform.deepLinkResults[0]!;
    expect(answer.error).toBeUndefined();
    expect(answer.claims![LTI_CLAIM.data]).toBe(`dl-${id}`);
    const [item] = answer.claims![LTI_CLAIM.contentItems];
    expect(item).toMatchObject({
      type: 'ltiResourceLink',
      title: model.name,
      custom: { helix_model: model.urlModelName },
    });
    await teacher.context.close();

    // A pupil opens the item in the course: the viewer shows the model inside the frame.
    const pupil = await newPage(browser);
    const hint = platform.prepare({
      kind: 'resource',
      custom: item!.custom,
      context: { id: `course-${id}`, title: 'Biology 7B', label: 'BIO7B' },
      sub: `pupil-${id}`,
    });
    await pupil.page.goto(`${platform.issuer}/course/${hint}`);
    frame = await toolFrame(pupil.page);
    await frame.waitForURL((url) => url.origin === new URL(inject('viewerUrl')).origin, { timeout: 20_000 });
    await frame.waitForFunction(() => document.body.dataset.viewerState === 'ready', null, {
      timeout: 45_000,
    });
    await pupil.context.close();

    // The owner's statistics: the view counted for the class.
    await page.goto('/stats');
    const classes = page.getByTestId('stats-classes');
    const row = classes.getByRole('row').filter({ hasText: 'Biology 7B (BIO7B)' });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      'Biology 7B (BIO7B)',
      'Lakeside Moodle',
      '1',
      '1',
      expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/),
    ]);
    await context.close();
  });
});
