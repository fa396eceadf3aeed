import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';

/**
 * The join page a learner's LTI launch lands on (/join/{code}#lti={ticket}, docs/live-lessons.md,
 * "From a course"), in a tablet's browser: once hydrated it joins with the ticket instead of asking for
 * a name, and the ticket leaves the address bar. A ticket the server does not honour (no live lesson,
 * forged) is refused in the form's words, and the code form is the way in. (The seat a valid ticket
 * takes is apps/api's lti.routes.test.ts; the page's handling of it, lti-join.test.ts.)
 */
describe('joining a lesson from a course launch', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('posts the ticket from the fragment, takes it out of the address bar, and falls back to the code form', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 820, height: 1180 } });
    const posted: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/lessons/join/lti')) posted.push(request.postDataJSON());
    });
    const ticket = 'lti1.eyJ0IjoxfQ.bm90LWEtc2lnbmF0dXJl';
    await page.goto(`/join/ABC234#lti=${ticket}`);

    const refused = page.getByTestId('join-refused');
    await refused.waitFor({ timeout: 30_000 });
    expect(await refused.textContent()).toContain(MSG.lessonNotFound);
    expect(posted).toEqual([{ ticket }]);
    expect(new URL(page.url()).hash).toBe('');
    expect(new URL(page.url()).pathname).toBe('/join/ABC234');
    // The code form is the way in, filled from the link, asking for a name again.
    expect(await page.getByLabel('Lesson code').inputValue()).toBe('ABC234');
    await page.getByLabel('Your name').waitFor();
    expect(await page.getByTestId('join-lti').count()).toBe(0);
    await context.close();
  });
});
