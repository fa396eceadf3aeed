import type { Browser } from 'playwright-core';
import { takePageErrors } from '@helix/stack/page-errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from './support/browser.ts';

/** The guard every browser test relies on: a page error is seen (and would fail the test). */
describe('page errors in browser tests', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('records an uncaught error and an unhandled rejection of any page', async () => {
    const page = await browser.newPage();
    await page.setContent(`<script>
      setTimeout(() => { throw new Error('thrown in a timer'); });
      Promise.reject(new Error('rejected and never caught'));
    </script>`);
    const errors: string[] = [];
    await expect
      .poll(() => {
        errors.push(...takePageErrors());
        return ['thrown in a timer', 'rejected and never caught'].filter((m) =>
          errors.join('\n').includes(m),
        );
      })
      .toHaveLength(2);
    await page.close();
  });
});
