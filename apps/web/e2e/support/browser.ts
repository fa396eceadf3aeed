import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '@helix/stack/chromium';
import { inject } from 'vitest';
import { failOnPageErrors } from '@helix/stack/page-errors';

/**
 * Debian's Chromium (never a downloaded browser); see packages/stack/src/chromium.ts. A page error in
 * any of its pages fails the test it happened in (packages/stack/src/page-errors.ts).
 */
export const launchBrowser = async (): Promise<Browser> => failOnPageErrors(await launchChromium());

export const appUrl = (path = '/'): string => new URL(path, inject('apiUrl')).toString();

export async function newPage(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: inject('apiUrl'),
    viewport: { width: 1280, height: 860 },
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}
