import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { MSG } from '@helix/shared';
import { DEMO, logIn, startLoginPage } from './support/accounts.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { demoEmbedToken } from './support/demo-link.ts';

/** What the PWA has done to the page: service workers registered, manifest linked, toasts shown. */
const pwaTraces = (page: Page) =>
  page.evaluate(async () => ({
    registrations: (await navigator.serviceWorker.getRegistrations()).length,
    manifest: document.querySelectorAll('link[rel="manifest"]').length,
    toasts: Array.from(document.querySelectorAll('.ant-message'), (el) => el.textContent ?? '').join(' '),
    updatePrompt: document.querySelectorAll('[data-testid="update-prompt"]').length,
  }));

/** Whether the page refuses the browser's install prompt (the mini-infobar / install banner). */
const refusesInstallPrompt = (page: Page) =>
  page.evaluate(() => {
    const event = new Event('beforeinstallprompt', { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  });

describe('installable PWA', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('opens the app shell offline after one visit', async () => {
    const { context, page } = await newPage(browser);
    await page.goto('/login');
    await startLoginPage(page);
    // The manifest is linked and the service worker takes control once it has precached the shell.
    await page.locator('link[rel="manifest"]').waitFor({ state: 'attached' });
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    await context.setOffline(true);
    await page.goto('/forgot-password');
    await page.getByRole('button', { name: 'Send reset link' }).waitFor();
    await page.goto('/login');
    await page.getByRole('button', { name: 'Log In', exact: true }).waitFor();
    await context.close();
  });

  it('with the worker in control, a page is still the one the server draws (brand, layout), and the app shell only offline', async () => {
    const { context, page } = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await logIn(page, DEMO.owner.email, DEMO.owner.password);
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    // Online: the worker answers with the server's page, drawn for this school and hydrated.
    const online = await page.goto('/user/settings/users-list');
    expect(online?.fromServiceWorker()).toBe(true);
    expect(await online!.text()).toContain('<div id="root" data-server-rendered="');
    await page.locator('#root[data-hydrated="true"]').waitFor();

    // Offline: the precached shell, and the app draws the page from the device's copy.
    await context.setOffline(true);
    const offline = await page.goto('/user/settings/users-list');
    const shell = await offline!.text();
    expect(shell).toContain('class="boot-screen"');
    expect(shell).not.toContain('data-server-rendered');
    await page.locator('#root[data-rendered="true"]').waitFor();
    await context.close();
  });

  it('shows "ready to work offline" on the portal, but never on the embed and share pages', async () => {
    // The portal: the service worker installs and the toast says so (this is what must not happen below).
    const portal = await newPage(browser);
    await portal.page.goto('/login');
    await startLoginPage(portal.page);
    await portal.page.getByText(MSG.offlineReady).waitFor();
    expect(await refusesInstallPrompt(portal.page)).toBe(false);
    const token = await demoEmbedToken();
    // In the browser the portal's service worker now controls, a share or embed link is still the
    // page the server draws (the worker's app shell said the link was unavailable).
    for (const path of [`/share/${token}`, `/embed/${token}`]) {
      await portal.page.goto(path);
      await portal.page.locator('iframe.embed-frame').waitFor();
      expect(await portal.page.getByTestId('link-unavailable').count(), path).toBe(0);
    }
    await portal.context.close();

    for (const path of [`/embed/${token}`, `/share/${token}`]) {
      const { context, page } = await newPage(browser);
      await page.goto(path);
      await page.locator('iframe.embed-frame').waitFor();
      // Longer than the portal took above to register, precache and toast.
      await page.waitForTimeout(4000);
      expect(await pwaTraces(page), path).toEqual({
        registrations: 0,
        manifest: 0,
        toasts: '',
        updatePrompt: 0,
      });
      expect(await refusesInstallPrompt(page), path).toBe(true);
      await context.close();
    }
  });
});
