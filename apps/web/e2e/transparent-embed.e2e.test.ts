import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { embedFlagLabel, TRANSPARENT_BACKGROUND } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import { expectPath, logIn } from './support/accounts.ts';
import { registerPerson } from './support/billing.ts';
import { embeddedViewer, onPlan } from './support/embedded-viewer.ts';
import { startHostServer } from './support/host-page.ts';
import { coverage, shareOfColour } from './support/pixels.ts';

/** The customer's page colour: nothing in the demo models or the viewer's chrome is this magenta. */
const HOST_RGB: [number, number, number] = [255, 0, 170];

const ENTERPRISE_MONTHLY = 13;
const EDUCATOR_MONTHLY = 8;

describe('transparent embeds (Background.transparent, plan transparentBackgroundWebEmbeding)', () => {
  let browser: Browser;
  let host: Awaited<ReturnType<typeof startHostServer>> | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await host?.close();
    await browser?.close();
  });

  it('an Enterprise owner makes a transparent embed; a coloured host page shows around the model, until the plan drops it', async () => {
    const { context, page } = await newPage(browser);
    const person = await registerPerson(page);
    await onPlan(person.email, ENTERPRISE_MONTHLY);
    await logIn(page, person.email, person.password);
    await expectPath(page, '/user/home');

    const embedButton = page.getByRole('button', { name: /^Embed Animal cell/ }).first();
    await embedButton.click();
    const dialog = page.getByRole('dialog', { name: /^Embed Animal cell/ });
    const transparent = dialog.getByRole('checkbox', {
      name: embedFlagLabel(TRANSPARENT_BACKGROUND),
      exact: true,
    });
    const colour = dialog.getByRole('checkbox', { name: embedFlagLabel('background_color'), exact: true });
    // The most recently picked of background, background_color and transparent wins.
    await transparent.check();
    await expect.poll(() => colour.isChecked()).toBe(false);
    await colour.check();
    await expect.poll(() => transparent.isChecked()).toBe(false);
    await transparent.check();
    await expect.poll(() => colour.isChecked()).toBe(false);
    // Panels would cover the host page's corner: keep the view clear.
    for (const flag of ['info', 'layers', 'table_of_content']) {
      await dialog.getByRole('checkbox', { name: embedFlagLabel(flag), exact: true }).uncheck();
    }
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Embed link' });
    await expect.poll(() => link.inputValue()).toMatch(/\/embed\/[A-Za-z0-9_-]{20,}$/);
    const embedUrl = await link.inputValue();
    await context.close();

    host = await startHostServer({
      '/': {
        type: 'text/html; charset=utf-8',
        body: `<!doctype html><html><body style="margin:0;background:rgb(${HOST_RGB.join(',')})">
          <iframe id="model" src="${embedUrl}" title="Embedded model" style="border:0;width:720px;height:480px;margin:40px"></iframe>
        </body></html>`,
      },
    });
    const visitor = await newPage(browser);
    await visitor.page.goto(host.url);
    const viewer = await embeddedViewer(visitor.page);
    expect(await viewer.evaluate(() => document.body.dataset.background)).toBe('transparent');
    const shot = await visitor.page.locator('#model').screenshot();
    // The host page's colour shows around the model, and the model is drawn over it.
    expect(await shareOfColour(shot, HOST_RGB)).toBeGreaterThan(0.3);
    expect(await coverage(shot)).toBeGreaterThan(0.02);

    // The plan no longer includes transparent embeds: the next load falls back to the tenant's colour.
    await onPlan(person.email, EDUCATOR_MONTHLY);
    await expect
      .poll(
        async () => {
          await visitor.page.reload();
          const frame = await embeddedViewer(visitor.page);
          return frame.evaluate(() => document.body.dataset.background);
        },
        { timeout: 40_000, interval: 1000 },
      )
      .toBe('color');
    const after = await visitor.page.locator('#model').screenshot();
    expect(await shareOfColour(after, HOST_RGB)).toBeLessThan(0.01);
    await visitor.context.close();
  });

  it('a tenant whose plan lacks the feature is not offered a transparent background', async () => {
    const { context, page } = await newPage(browser);
    const person = await registerPerson(page);
    await onPlan(person.email, EDUCATOR_MONTHLY);
    await logIn(page, person.email, person.password);
    await expectPath(page, '/user/home');
    await page
      .getByRole('button', { name: /^Embed Animal cell/ })
      .first()
      .click();
    const dialog = page.getByRole('dialog', { name: /^Embed Animal cell/ });
    await dialog.getByRole('checkbox', { name: embedFlagLabel('background_color'), exact: true }).waitFor();
    expect(
      await dialog
        .getByRole('checkbox', { name: embedFlagLabel(TRANSPARENT_BACKGROUND), exact: true })
        .count(),
    ).toBe(0);
    await context.close();
  });
});
