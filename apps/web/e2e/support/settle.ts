import type { Page } from 'playwright-core';

/**
 * The page once its data is drawn: the network idle, then no skeleton or spinner left (at most 10 s
 * more; a page that keeps one is measured as it is).
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page
    .waitForFunction(
      () => !document.querySelector('[data-testid="list-skeleton"], .ant-spin-spinning, .ant-skeleton'),
      null,
      { timeout: 10_000 },
    )
    .catch(() => undefined);
}
