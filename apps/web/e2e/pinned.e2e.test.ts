import { appendFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Frame, Page } from 'playwright-core';
import { inject } from 'vitest';
import { MSG } from '@helix/shared';
import { WEB_DIST_DIR } from '@helix/stack/paths';
import { expectPath, logIn, logOut } from './support/accounts.ts';
import { registerPerson, sql } from './support/billing.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { coverage, difference } from './support/pixels.ts';

/**
 * Classroom tablets (issue 8 §3): a user keeps a model offline, loses the network, reloads, opens it
 * in the viewer (the same pixels as online), and the view made offline is counted once back online.
 * Runs as a person of its own (own tenant), since the demo accounts are shared by all browser tests
 * and one login ends the user's other sessions.
 */
const MODEL = 'Animal cell'; // a demo model without animations: a paused, reset view is deterministic
const PINNED_CACHE = 'helix-pinned-v1';

async function rows<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('databaseUrl') });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The person's tenant gets the demo tenant's plan, paid and in force (as after a checkout). */
const subscribeLikeDemo = (email: string) =>
  sql(
    `UPDATE "TenantSubscription" s
     SET "planId" = d."planId", status = 'active', "activePayment" = true, "isTrialPassed" = true,
         "currentPeriodStart" = now() - interval '1 day', "currentPeriodEnd" = now() + interval '29 days'
     FROM "TenantSubscription" d
     WHERE d."tenantId" = (SELECT id FROM "Tenant" WHERE "domainPrefix" = 'demo')
       AND s."tenantId" = (SELECT "tenantId" FROM "User" WHERE email = $1)`,
    [email],
  );

/** The viewer frame once it has rendered, paused and reset (a view that does not depend on time). */
async function renderedViewer(page: Page): Promise<{ frame: Frame; shot: Buffer }> {
  const iframe = page.locator(`iframe[title="${MODEL} viewer"]`);
  const frame = (await (await iframe.elementHandle({ timeout: 30_000 }))!.contentFrame())!;
  await frame.waitForFunction(
    () => ['ready', 'error'].includes(document.body.dataset.viewerState ?? ''),
    null,
    {
      timeout: 60_000,
    },
  );
  const state = await frame.evaluate(
    () => (window as unknown as { __viewer: { error: string | null } }).__viewer.error,
  );
  expect(state, 'viewer error').toBeNull();
  if (
    await frame.evaluate(() => (window as unknown as { __viewer: { playing: boolean } }).__viewer.playing)
  ) {
    await frame.getByRole('button', { name: 'Pause' }).click();
  }
  await frame.getByRole('button', { name: 'Reset view' }).click();
  // Two animation frames: the reset view is drawn.
  await frame.evaluate(
    () => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))),
  );
  return { frame, shot: await iframe.screenshot() };
}

/** Closes the viewer modal (Escape would go to the viewer frame, which has the focus). */
async function closeViewer(page: Page): Promise<void> {
  const dialog = page.getByRole('dialog', { name: MODEL });
  await dialog.getByRole('button', { name: 'Close', exact: true }).click();
  await dialog.waitFor({ state: 'hidden' });
}

const pinnedEntries = (page: Page) =>
  page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => r.url), PINNED_CACHE);

const storageUsage = (page: Page) =>
  page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);

describe('models kept offline on a tablet', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('pins a model, opens it with no network like online, and counts the offline view once back online', async () => {
    const { context, page } = await newPage(browser);
    const person = await registerPerson(page);
    await subscribeLikeDemo(person.email);
    const [user] = await rows<{ id: number }>('SELECT id FROM "User" WHERE email = $1', [person.email]);
    const [model] = await rows<{ id: number }>('SELECT id FROM "Model" WHERE name = $1', [MODEL]);
    await logIn(page, person.email, person.password);
    await expectPath(page, '/user/home');
    // The portal's service worker controls the page (the shell opens offline).
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await page.reload();
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);

    // Online: the viewer renders the model (one view counted by the viewer's lookup).
    await page.getByRole('button', { name: `Open ${MODEL}` }).click();
    const online = await renderedViewer(page);
    expect(await coverage(online.shot)).toBeGreaterThan(0.01);

    // Keep it offline from the viewer: its file, thumbnail and the viewer's app go on the device.
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: MSG.keepOffline }).click();
    await dialog.getByRole('button', { name: MSG.removeOffline }).waitFor({ timeout: 60_000 });
    await dialog.getByTestId('pinned-storage').waitFor();
    await closeViewer(page);
    const card = page.getByRole('listitem', { name: MODEL });
    await card.getByTestId('kept-offline').waitFor();
    await page.getByTestId('pinned-storage').waitFor();
    const kept = await pinnedEntries(page);
    expect(kept.some((url) => url.endsWith(`/${user!.id}/${model!.id}-v1.glb`))).toBe(true);
    expect(kept.some((url) => url.includes('/api/files/images/thumbnail-'))).toBe(true);

    // The network drops; the tablet reloads: the grid comes from the device, the pinned model opens.
    await context.setOffline(true);
    await page.reload();
    await card.getByTestId('kept-offline').waitFor();
    expect(
      await card.locator('img').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
    ).toBe(true);
    await page.getByRole('button', { name: `Open ${MODEL}` }).click();
    await page.getByTestId('viewer-offline').waitFor();
    const offline = await renderedViewer(page);
    expect(await coverage(offline.shot)).toBeGreaterThan(0.01);
    // The same model in the same view: far fewer pixels differ than the model covers (a blank or another
    // render would differ in about all of them).
    expect(await difference(online.shot, offline.shot)).toBeLessThan((await coverage(online.shot)) / 2);
    await closeViewer(page);
    const queued = await page.evaluate(
      () =>
        new Promise<number>((resolve, reject) => {
          const open = indexedDB.open('helix');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const count = open.result.transaction('queuedViews').objectStore('queuedViews').count();
            count.onsuccess = () => resolve(count.result);
          };
        }),
    );
    expect(queued).toBe(1);
    expect(await rows('SELECT key FROM "OfflineView" WHERE "userId" = $1', [user!.id])).toHaveLength(0);

    // Back online: the queued view is sent and counted once.
    await context.setOffline(false);
    await expect
      .poll(
        async () =>
          rows<{ key: string; outcome: string }>(
            'SELECT key, outcome FROM "OfflineView" WHERE "userId" = $1',
            [user!.id],
          ),
        {
          timeout: 30_000,
        },
      )
      .toEqual([{ key: expect.any(String), outcome: 'counted' }]);
    const views = async () =>
      Number(
        (
          await rows<{ n: string | null }>(
            `SELECT sum(count) AS n FROM "ModelViewDaily" WHERE "viewerKey" = $1 AND "modelId" = $2`,
            [`u:${user!.id}`, model!.id],
          )
        )[0]!.n ?? 0,
      );
    await expect.poll(views, { timeout: 30_000 }).toBe(2); // the online view and the offline one

    // A reload and a resend of the same key count nothing more.
    await page.reload();
    await card.getByTestId('kept-offline').waitFor();
    // The view was sent with the copy the server issued to this user and device when pinning.
    const [{ key, copyId, deviceId } = { key: '', copyId: '', deviceId: '' }] = await rows<{
      key: string;
      copyId: string;
      deviceId: string;
    }>(
      `SELECT v.key, v."copyId", g."deviceId" FROM "OfflineView" v
         JOIN "OfflineCopyGrant" g ON g.id = v."copyId" AND g."userId" = v."userId" AND g."modelId" = v."modelId"
        WHERE v."userId" = $1`,
      [user!.id],
    );
    expect(copyId).not.toBe('');
    const resend = await page.evaluate(
      async ({ key, id, copyId, deviceId }) => {
        const cookie = (name: string) =>
          decodeURIComponent(document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]+)`))?.[1] ?? '');
        const token = cookie('apiToken');
        const tenant = cookie('tenant');
        const res = await fetch(`/api/t/${tenant}/model/offline-view`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ id, key, copyId, deviceId, viewedAt: new Date().toISOString() }),
        });
        return { status: res.status, body: (await res.json()) as unknown };
      },
      { key, id: model!.id, copyId, deviceId },
    );
    expect(resend).toEqual({ status: 200, body: { counted: true, duplicate: true } });
    expect(await rows('SELECT key FROM "OfflineView" WHERE "userId" = $1', [user!.id])).toHaveLength(1);
    expect(await views()).toBe(2);

    // A deploy while the tablet was offline: back online, the new version is offered at once, and after
    // the update the pinned model still opens without network (the precache clean-up spares it).
    const worker = path.join(process.env.WEB_DIST_DIR ?? WEB_DIST_DIR, 'sw.js');
    const deployed = await readFile(worker);
    try {
      await context.setOffline(true);
      await appendFile(worker, `\n// deploy ${Date.now()}\n`);
      await context.setOffline(false);
      const prompt = page.getByTestId('update-prompt');
      await prompt.waitFor({ timeout: 30_000 });
      await Promise.all([page.waitForEvent('load'), prompt.getByRole('button', { name: 'Reload' }).click()]);
    } finally {
      await writeFile(worker, deployed);
    }
    await card.getByTestId('kept-offline').waitFor();
    expect(await pinnedEntries(page)).toEqual(expect.arrayContaining(kept));
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('button', { name: `Open ${MODEL}` }).click();
    await page.getByTestId('viewer-offline').waitFor();
    expect(await coverage((await renderedViewer(page)).shot)).toBeGreaterThan(0.01);
    await closeViewer(page);
    await context.setOffline(false);

    // Unpin frees the space: the files leave Cache Storage and the estimate drops.
    const usedWhilePinned = await storageUsage(page);
    await card.getByRole('button', { name: `${MSG.removeOffline} ${MODEL}` }).click();
    await card.getByTestId('kept-offline').waitFor({ state: 'detached' });
    // The pin's row goes first (the badge with it), then its files (pinned-models.ts, unpinModel).
    await expect.poll(() => pinnedEntries(page)).toEqual([]);
    await expect.poll(() => storageUsage(page), { timeout: 15_000 }).toBeLessThan(usedWhilePinned);

    // Pinned again, then signing out frees the person's files too.
    await card.getByRole('button', { name: `${MSG.keepOffline} ${MODEL}` }).click();
    await card.getByTestId('kept-offline').waitFor({ timeout: 60_000 });
    expect((await pinnedEntries(page)).length).toBeGreaterThan(0);
    await logOut(page);
    await expect.poll(() => pinnedEntries(page)).toEqual([]);
    await context.close();
    // Two viewer renders, a service-worker install and an offline round trip: about 45 s alone, more
    // when the other browser files run beside it.
  }, 150_000);
});
