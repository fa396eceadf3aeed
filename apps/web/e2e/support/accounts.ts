import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';

/** The seeded demo accounts (prisma/seed.ts). */
export const DEMO = {
  admin: { email: 'admin@helix.local', password: 'admin-demo-2026' },
  owner: { email: 'owner@demo.helix.local', password: 'owner-demo-2026' },
  user: { email: 'user@demo.helix.local', password: 'user-demo-2026' },
} as const;

/** A fresh identity for a sign-up, unique per call. */
export function newPerson() {
  const id = randomBytes(3)
    .toString('hex')
    .replace(/[0-9]/g, (d) => 'abcdefghij'[Number(d)]!);
  return {
    name: `Test Person ${id}`,
    userName: `tester${id}`,
    email: `tester.${id}@example.com`,
    password: `pw-${id}-long`,
  };
}

/**
 * /login arrives rendered by the server and the app hydrates it as soon as its code has loaded
 * (apps/web/README.md, "How a page is rendered"): this waits until the app is up (hydrated, or
 * rendered when the page came as the app shell).
 */
export async function startLoginPage(page: Page): Promise<void> {
  await waitForApp(page);
}

/** Until the app's first render is committed: the server's page hydrated, or the app rendered itself. */
export async function waitForApp(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const root = document.querySelector('#root');
    return root?.getAttribute('data-hydrated') === 'true' || root?.getAttribute('data-rendered') === 'true';
  });
}

export async function logIn(page: Page, email: string, password: string, rememberMe = false): Promise<void> {
  await page.goto('/login');
  await startLoginPage(page);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  if (rememberMe) await page.getByLabel('Remember me').check();
  await page.getByRole('button', { name: 'Log In', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
}

export async function signUp(page: Page, person: ReturnType<typeof newPerson>): Promise<void> {
  await page.goto('/signup');
  // As the login above: a press before the app is up would be the browser's own submit of the form.
  await waitForApp(page);
  await page.getByLabel('Name', { exact: true }).fill(person.name);
  await page.getByLabel('Username', { exact: true }).fill(person.userName);
  await page.getByLabel('Email', { exact: true }).fill(person.email);
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('I agree to the Terms of Service and Privacy Policy').check();
  await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
}

export async function logOut(page: Page): Promise<void> {
  await page.getByTestId('user-menu').click();
  await page.getByRole('menuitem', { name: 'Log Out' }).click();
  await page.waitForURL((url) => url.pathname.startsWith('/login'));
}

/** Resolves when the path matches; fails with the path it was on and the messages then on screen. */
export async function expectPath(page: Page, path: string | RegExp, timeout = 15_000): Promise<void> {
  const test = (p: string) => (typeof path === 'string' ? p === path : path.test(p));
  try {
    await page.waitForURL((url) => test(url.pathname), { timeout });
  } catch {
    const shown = await page
      .locator('.ant-message-notice, [role="alert"], [role="dialog"]')
      .allInnerTexts()
      .catch(() => []);
    const messages = shown.map((text) => text.trim()).filter(Boolean);
    const onScreen = messages.length > 0 ? `; on screen: ${messages.join(' | ')}` : '';
    throw new Error(`expected path ${path}, still on ${new URL(page.url()).pathname}${onScreen}`);
  }
}

/** The texts of the form's field errors. */
export async function fieldErrors(page: Page): Promise<string[]> {
  await page.locator('.ant-form-item-explain-error').first().waitFor();
  return page.locator('.ant-form-item-explain-error').allInnerTexts();
}
