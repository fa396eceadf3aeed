import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@helix/shared';
import { launchBrowser, newPage } from './support/browser.ts';
import { expectPath, logIn } from './support/accounts.ts';
import { registerPerson, sql } from './support/billing.ts';
import { embeddedViewer, onPlan } from './support/embedded-viewer.ts';
import { startHostServer } from './support/host-page.ts';
import { coverage, shareOfColour } from './support/pixels.ts';

/** The school's page colour (nothing in the viewer's chrome is this green). */
const HOST_RGB: [number, number, number] = [0, 200, 90];
/** A plan with embedding and a view limit (Enterprise, the one with transparent embeds, is unlimited). */
const EDUCATOR_MONTHLY = 8;

/** WCAG relative luminance and contrast of two CSS rgb()/rgba() colours. */
function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = (css.match(/[\d.]+/g) ?? ['0', '0', '0']).slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe('the view limit in an embed (issue 17: never a blank lesson)', () => {
  let browser: Browser;
  let host: Awaited<ReturnType<typeof startHostServer>> | undefined;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await host?.close();
    await browser?.close();
  });

  it('an embed past the grace band shows the limit panel on a coloured host page', async () => {
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
    await dialog.getByRole('button', { name: 'Create Link' }).click();
    const link = dialog.getByRole('textbox', { name: 'Embed link' });
    await expect.poll(() => link.inputValue()).toMatch(/\/embed\/[A-Za-z0-9_-]{20,}$/);
    const embedUrl = await link.inputValue();
    await context.close();

    // The school refuses paid extras and has used its allowance and the grace band (10% of the plan).
    await sql(
      `UPDATE "Branding" SET "additionalViewsValidation" = true
       WHERE "tenantId" = (SELECT "tenantId" FROM "User" WHERE email = $1)`,
      [person.email],
    );
    await sql(
      `INSERT INTO "ModelViewDaily" ("modelId", "tenantId", "day", "source", "viewerKey", "userId", "count")
       SELECT m.id, u."tenantId", (now() AT TIME ZONE 'UTC')::date, 'portal', 'u:' || u.id, u.id,
              CEIL(p."viewLimit" * 1.1)::int + 1
       FROM "User" u
       JOIN "TenantSubscription" s ON s."tenantId" = u."tenantId"
       JOIN "Plan" p ON p.id = s."planId"
       CROSS JOIN LATERAL (SELECT id FROM "Model" WHERE name ILIKE 'Animal cell%' ORDER BY id LIMIT 1) m
       WHERE u.email = $1`,
      [person.email],
    );

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
    const viewer = await embeddedViewer(visitor.page, 'settled');
    expect(
      await viewer.evaluate(
        () => (window as unknown as { __viewer: { errorKind: string } }).__viewer.errorKind,
      ),
    ).toBe('limit');

    const panel = viewer.getByTestId('view-limit-panel');
    await panel.waitFor({ state: 'visible' });
    const text = (await panel.textContent()) ?? '';
    expect(text).toContain(MSG.schoolViewLimitTitle);
    expect(text).toContain(MSG.schoolViewLimitText);
    expect(text).not.toContain('429');
    // Readable: the card is opaque and its text contrasts with it (WCAG AA, 4.5:1).
    const look = await panel.locator('.card').evaluate((card) => {
      const style = getComputedStyle(card);
      const title = getComputedStyle(card.querySelector('.message-title')!);
      const body = getComputedStyle(card.querySelector('.message-text')!);
      const rect = card.getBoundingClientRect();
      return {
        bg: style.backgroundColor,
        title: title.color,
        body: body.color,
        w: rect.width,
        h: rect.height,
      };
    });
    expect(look.bg).toMatch(/^rgb\(/); // opaque (rgba would let the host colour through)
    expect(contrast(look.bg, look.title)).toBeGreaterThan(4.5);
    expect(contrast(look.bg, look.body)).toBeGreaterThan(4.5);
    expect(look.w).toBeGreaterThan(200);

    // Never blank: the school's colour around the frame, and inside it the panel's own card drawn
    // (not one flat colour, not the host colour showing through).
    const whole = await visitor.page.screenshot();
    expect(await shareOfColour(whole, HOST_RGB)).toBeGreaterThan(0.3);
    const frame = await visitor.page.locator('#model').screenshot();
    expect(await shareOfColour(frame, HOST_RGB)).toBeLessThan(0.01);
    expect(await coverage(frame)).toBeGreaterThan(0.05);
    await visitor.context.close();
  });
});
