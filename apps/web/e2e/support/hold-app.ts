import type { Page, Route } from 'playwright-core';

/**
 * Holds back the app's main chunk, so a server-rendered page stays as the server sent it (not yet
 * hydrated) for as long as a test needs; the returned function lets it through.
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
