import type { Page, Route } from 'playwright-core';

/**
 * The drawn pages (/login; a signed-in first visit to /user/home) start the app on first use
 * (src/boot.ts). Holding back the app's main chunk keeps such a page in its drawn state for as long as
 * a test needs; the returned function lets it through.
 */
export async function holdApp(page: Page): Promise<() => Promise<void>> {
  const held: Route[] = [];
  let holding = true;
  await page.route(/\/assets\/main-[^/]+\.js$/, (route) => {
    if (holding) held.push(route);
    else void route.continue();
  });
  return async () => {
    holding = false;
    await Promise.all(held.map((route) => route.continue()));
  };
}
