import type { Browser } from 'playwright-core';
import { afterEach } from 'vitest';

/** Uncaught errors and unhandled rejections seen in any watched page since the last test ended. */
const seen: string[] = [];

/**
 * Browser tests fail on a page error: every context the browser opens from now on (browser.newContext,
 * and browser.newPage, which goes through it) reports its pages' uncaught errors and unhandled
 * rejections, pop-ups included, and the test they happened in fails when it ends.
 */
export function failOnPageErrors(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.on('weberror', (webError) => {
      const page = webError.page();
      const error = webError.error();
      seen.push(`${page ? page.url() : '(closed page)'}: ${error.stack ?? error.message}`);
    });
    return context;
  };
  return browser;
}

/** The page errors seen since the last call (and forgets them). */
export const takePageErrors = (): string[] => seen.splice(0);

// Registered in every test file that loads this module (the browser helpers do).
afterEach(() => {
  const errors = takePageErrors();
  if (errors.length > 0) {
    throw new Error(`${errors.length} uncaught error(s) in the page:\n${errors.join('\n')}`);
  }
});
