import type { Frame, Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { sql } from './billing.ts';

/** The plan of an account, set as the billing flow would leave it (active, paid). */
export const onPlan = (email: string, planId: number) =>
  sql(
    `UPDATE "TenantSubscription" SET status = 'active', "activePayment" = true, "isTrialPassed" = true, "planId" = $2
     WHERE "tenantId" = (SELECT "tenantId" FROM "User" WHERE email = $1)`,
    [email, planId],
  );

/**
 * The viewer frame (the viewer host's origin) inside the embed page inside a host page, once it is
 * `ready`, or once it has left `loading` whatever it ended as (a refusal panel counts).
 */
export async function embeddedViewer(page: Page, until: 'ready' | 'settled' = 'ready'): Promise<Frame> {
  const viewerOrigin = new URL(inject('viewerUrl')).origin;
  let frame: Frame | undefined;
  await expect
    .poll(() => (frame = page.frames().find((f) => f.url().startsWith(viewerOrigin))), { timeout: 30_000 })
    .toBeTruthy();
  await frame!.waitForFunction(
    (wanted) =>
      wanted === 'ready'
        ? document.body.dataset.viewerState === 'ready'
        : document.body.dataset.viewerState !== 'loading',
    until,
    { timeout: 45_000 },
  );
  return frame!;
}
