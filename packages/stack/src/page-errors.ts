import { mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterEach } from 'vitest';

/** Uncaught errors and unhandled rejections seen in any watched page since the last test ended. */
const seen: string[] = [];
/** The watched contexts still open: what their pages show is printed when a test fails. */
const open = new Set<BrowserContext>();

/**
 * Browser tests fail on a page error: every context the browser opens from now on (browser.newContext,
 * and browser.newPage, which goes through it) reports its pages' uncaught errors and unhandled
 * rejections, pop-ups included, and the test they happened in fails when it ends.
 */
export function failOnPageErrors(browser: Browser): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    open.add(context);
    context.on('close', () => open.delete(context));
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

/**
 * What a failed test left on screen, so that a failure in a CI log says what the browser showed: each
 * open page's address and visible text (its start), and a screenshot in the temporary directory.
 */
async function describeOpenPages(testName: string): Promise<void> {
  const dir = path.join(os.tmpdir(), 'helix-e2e-failures');
  mkdirSync(dir, { recursive: true });
  let n = 0;
  for (const context of open) {
    for (const page of context.pages()) {
      n += 1;
      const file = path.join(dir, `${testName.replace(/[^\w-]+/g, '-').slice(0, 80)}-${n}.png`);
      const text = await page
        .locator('body')
        .innerText({ timeout: 2000 })
        .catch((error: unknown) => `(no text: ${String(error)})`);
      await page.screenshot({ path: file, timeout: 5000 }).catch(() => undefined);
      process.stderr.write(
        `[failed test] page ${n} at ${page.url()} (screenshot ${file}) shows:\n${text.slice(0, 1500)}\n`,
      );
    }
  }
}

// Registered in every test file that loads this module (the browser helpers do).
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') await describeOpenPages(task.name);
  const errors = takePageErrors();
  if (errors.length > 0) {
    throw new Error(`${errors.length} uncaught error(s) in the page:\n${errors.join('\n')}`);
  }
});
