import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage } from './support/browser.ts';
import { MSG } from '@helix/shared';
import { expectPath } from './support/accounts.ts';

describe('Google sign-in against oauth2-mock-server', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('signs up a new account through Google, then logs in with it again', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    // New account: no plan yet.
    await expectPath(page, /^\/choose-subscription/);
    const user = JSON.parse(
      decodeURIComponent((await context.cookies()).find((c) => c.name === 'user')!.value),
    );
    expect(user.email).toBe('ada.google@example.com');
    // The sign-up flow's own way out: clears cookies and local storage and goes to login.
    await page.getByRole('link', { name: MSG.alreadyHaveAccount }).click();
    await expectPath(page, /^\/login/);

    await page.getByRole('button', { name: 'Continue with Google' }).click();
    // Known account: logged in, and the guard sends an unsubscribed owner to choose a plan.
    await expectPath(page, /^\/(choose-subscription|subscription)/);
    expect((await context.cookies()).find((c) => c.name === 'auth-type')?.value).toBe('is-loggedin');
    await context.close();
  });
});
