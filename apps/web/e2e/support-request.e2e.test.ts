import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { MSG } from '@helix/shared';
import { SUPPORT_TARGETS } from '@helix/shared/support';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO, logIn } from './support/accounts.ts';
import { registerPerson, sql } from './support/billing.ts';
import { waitForMail, type ReceivedMail } from './support/mailbox.ts';

/** The support address of the run (the configuration's default). */
const SUPPORT_EMAIL = 'support@helix.local';
/** Enterprise Monthly (prisma/seed/plans.ts): fast-track support. */
const ENTERPRISE_MONTHLY = 13;

/** The newest e-mail to `address` whose subject contains `text` (others may arrive first). */
async function waitForSubject(address: string, text: string, timeoutMs = 30_000): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = await waitForMail(address, Math.max(1, deadline - Date.now()));
    if (mail.subject.includes(text)) return mail;
    if (Date.now() > deadline) throw new Error(`no e-mail to ${address} about "${text}"`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('fast-track support in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("an Enterprise user's request reaches the SMTP server marked priority and shows on the admin's Support page", async () => {
    const subject = `Model will not rotate ${randomBytes(3).toString('hex')}`;
    const { page } = await newPage(browser);
    const person = await registerPerson(page);
    await sql(
      `UPDATE "TenantSubscription" SET status = 'active', "activePayment" = true, "planId" = $2
       WHERE "tenantId" = (SELECT "tenantId" FROM "User" WHERE email = $1)`,
      [person.email, ENTERPRISE_MONTHLY],
    );
    await logIn(page, person.email, person.password);

    await page.getByTestId('help').click();
    const dialog = page.getByRole('dialog', { name: 'Help' });
    await dialog.getByLabel('Subject').fill(subject);
    await dialog.getByLabel('Message').fill('The heart model does not turn\nwhen I drag it.');
    // What the user sees, as the screenshot.
    const shot = await page.screenshot();
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'screen.png', mimeType: 'image/png', buffer: shot });
    await dialog.getByTestId('Screenshot-preview').waitFor();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await expect
      .poll(() => dialog.getByTestId('support-sent').innerText(), { timeout: 30_000 })
      .toBe(MSG.supportRequestSent(SUPPORT_TARGETS.priority.label));

    const team = await waitForSubject(SUPPORT_EMAIL, subject);
    expect(team.subject).toMatch(/^\[Priority\] Support request #\d+ \(answer within 4 business hours\): /);
    expect(team.text).toContain(person.email);
    expect(team.text).toMatch(/Plan: Enterprise Monthly/);
    expect(team.text).toContain('The heart model does not turn');
    const id = /#(\d+)/.exec(team.subject)![1]!;
    const copy = await waitForSubject(person.email, `support request #${id}`);
    expect(copy.text).toContain('4 business hours');

    const admin = await newPage(browser);
    await logIn(admin.page, DEMO.admin.email, DEMO.admin.password);
    await admin.page
      .locator('nav[aria-label="Administration"] .ant-menu-item', { hasText: 'Support' })
      .click();
    await admin.page.getByRole('heading', { name: 'Support Requests', level: 1 }).waitFor();
    const row = admin.page.locator('tr', { hasText: subject });
    await row.waitFor();
    await expect.poll(() => row.getByTestId('priority-tag').innerText()).toBe('Priority');
    expect(await row.innerText()).toContain('Enterprise Monthly');
    expect(await row.innerText()).toContain('4 business hours');
    // Priority requests are listed first.
    const priorities = await admin.page
      .locator('tbody tr.ant-table-row')
      .evaluateAll((rows) => rows.map((r) => r.querySelector('[data-testid="priority-tag"]') !== null));
    expect(priorities).toEqual([...priorities].sort((a, b) => Number(b) - Number(a)));

    // The message and the screenshot (fetched with the admin's session; not a public image).
    await row.getByRole('button', { name: MSG.showRowDetails }).click();
    await admin.page.getByText('when I drag it.', { exact: false }).waitFor();
    await admin.page.getByRole('button', { name: 'Show screenshot' }).click();
    const image = admin.page.getByRole('img', { name: `Screenshot of request ${id}` });
    await image.waitFor();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);

    await row.getByTestId(`status-${id}`).click();
    await admin.page.locator('.ant-select-dropdown .ant-select-item-option', { hasText: 'Answered' }).click();
    await admin.page.getByText(MSG.supportStatusUpdated).waitFor();
    await expect.poll(() => row.getByTestId(`status-${id}`).innerText()).toContain('Answered');
  });
});
