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

export async function newPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number }; reducedMotion?: 'reduce' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: inject('apiUrl'),
    viewport: options.viewport ?? { width: 1280, height: 860 },
    reducedMotion: options.reducedMotion,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  // A page the server rendered is the real page before the app has hydrated it, and a press then is
  // the browser's own (a form's native submit, a button that does nothing yet). A person waits for a
  // page to respond; a test's first step comes within milliseconds, so it waits for the hydration mark
  // (what comes before hydration is tested on its own: server-render.e2e.test.ts).
  const goto = page.goto.bind(page);
  page.goto = async (...args: Parameters<Page['goto']>) => {
    const response = await goto(...args);
    await untilHydrated(page);
    return response;
  };
  return { context, page };
}

/**
 * Until a server-rendered page (#root[data-server-rendered], or a share page: #root[data-link] with its
 * props, src/pages/share/link-page-start.ts) is hydrated; at once for any other page.
 */
async function untilHydrated(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.querySelector('#root');
    const share = root?.hasAttribute('data-link') && document.getElementById('link-page-data') !== null;
    if (!root || (!root.hasAttribute('data-server-rendered') && !share)) return true;
    return root.getAttribute('data-hydrated') === 'true' || root.getAttribute('data-rendered') === 'true';
  });
}
