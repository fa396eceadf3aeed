import type { Frame, Page } from 'playwright-core';

/** The frame of a test learning platform's course page that holds the tool (TestLtiPlatform's page). */
export async function toolFrame(page: Page): Promise<Frame> {
  const handle = await page.locator('iframe[title="Helix activity"]').elementHandle({ timeout: 30_000 });
  return (await handle!.contentFrame())!;
}
