import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectPath, logIn, type newPerson } from './accounts.ts';
import { registerPerson } from './billing.ts';
import { newPage } from './browser.ts';

type Person = ReturnType<typeof newPerson>;

/**
 * A new account without a plan on a page of its own, logged in through the form and sent to choose a
 * plan (/subscription). `prepare` sets its state in the database first (trial passed, a test clock...).
 */
export async function newCustomerPage(
  browser: Browser,
  prepare?: (person: Person) => Promise<unknown>,
): Promise<{ context: BrowserContext; page: Page; person: Person }> {
  const { context, page } = await newPage(browser);
  const person = await registerPerson(page);
  await prepare?.(person);
  await logIn(page, person.email, person.password);
  await expectPath(page, '/subscription');
  return { context, page, person };
}
