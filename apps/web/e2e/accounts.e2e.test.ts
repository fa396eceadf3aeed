import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import {
  DEMO,
  expectPath,
  fieldErrors,
  logIn,
  logOut,
  newPerson,
  signUp,
  waitForApp,
} from './support/accounts.ts';

describe('accounts in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the login validation messages verbatim', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log In', exact: true }).click();
    const errors = await fieldErrors(page);
    expect(errors).toContain(MSG.loginEmailRequired);
    expect(errors).toContain(MSG.loginPasswordRequired);
    await context.close();
  });

  it('shows the sign-up validation messages verbatim', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/signup');
    // A press before the app has hydrated the server's form is the browser's own submit (docs: README,
    // "How a page is rendered"); the messages are the app's.
    await waitForApp(page);
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    const empty = await fieldErrors(page);
    for (const message of [
      MSG.nameRequired,
      MSG.usernameRequired,
      MSG.emailRequired,
      MSG.passwordRequired,
      MSG.agreePrivacy,
    ]) {
      expect(empty).toContain(message);
    }
    await page.getByLabel('Username', { exact: true }).fill('Bad_Name1x');
    await page.getByLabel('Username', { exact: true }).blur();
    await page.getByText(MSG.usernameRule).waitFor();
    // The password rule is said before it bites, and held to: 8 characters at least.
    await page.getByText(MSG.passwordRuleHint).waitFor();
    await page.getByLabel('Password', { exact: true }).fill('1234567');
    await page.getByLabel('Password', { exact: true }).blur();
    await page.getByText(MSG.passwordMin8).waitFor();
    await context.close();
  });

  it('signs up a new account, which then has to choose a subscription', async () => {
    const { context, page } = await newPage(browser);
    const person = newPerson();
    await signUp(page, person);
    await expectPath(page, /^\/choose-subscription/);
    await page.getByText(MSG.saveAnnual).first().waitFor();
    await context.close();
  });

  it('puts the server field errors on the form (username already taken)', async () => {
    const { context, page } = await newPage(browser);
    const person = { ...newPerson(), userName: 'olivia' };
    await signUp(page, person);
    // On the field itself (the same message also appears as a toast).
    await page.locator('.ant-form-item-explain-error', { hasText: MSG.usernameTaken }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/signup');
    await context.close();
  });

  it('logs in and out', async () => {
    const { context, page } = await newPage(browser);
    await logIn(page, DEMO.owner.email, DEMO.owner.password);
    await expectPath(page, '/user/home');
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'apiToken')?.value).toBeTruthy();
    await logOut(page);
    expect((await context.cookies()).find((c) => c.name === 'auth-type')).toBeUndefined();
    // The session is over on the server too: the protected page sends us back to login.
    await page.goto('/user/home');
    await expectPath(page, '/login');
    await context.close();
  });

  it('keeps one computer at a time: the first browser sees the multiple-login popup', async () => {
    const first = await newPage(browser);
    const second = await newPage(browser);
    await logIn(first.page, DEMO.user.email, DEMO.user.password);
    await expectPath(first.page, '/user/home');
    await logIn(second.page, DEMO.user.email, DEMO.user.password);
    await expectPath(second.page, '/user/home');
    // The first browser's next action reaches the server with its ended session.
    await first.page.reload();
    await first.page.getByTestId('multiple-login-modal').waitFor();
    await first.page.getByText(MSG.multipleLogin).waitFor();
    await first.page.getByRole('button', { name: 'Go to login' }).click();
    await expectPath(first.page, /^\/login/);
    await first.context.close();
    await second.context.close();
  });
});
