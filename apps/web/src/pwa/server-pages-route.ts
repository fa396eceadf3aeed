/**
 * The service worker's route for the portal's pages (vite.config.ts, workbox runtimeCaching): a page
 * opened in the installed app or a tab it controls is asked of the server first, so it arrives drawn
 * by the server with the school's brand and hydrates (docs/web-performance.md), as on a first visit;
 * the precached app shell (index.html, which draws the app in the browser from the device's copy)
 * answers only when the server cannot: offline, a 5xx, or no answer within SHELL_AFTER_MS on a
 * patchy connection. Before, every page after the first visit was the shell: a classroom tablet's
 * first paint was "Loading…" and the layout and brand came with the app.
 *
 * Not matched, so the browser asks the network as usual: the API and the OAuth round trip under
 * /api, the dev mail page, the Terms and Privacy pages (or their redirects), and the share and embed
 * pages, which the server draws for each load (the shell in their place said "This link is no longer
 * available" to anyone who had used the portal in the same browser).
 *
 * Nothing the server draws is kept: a page carries its user's data, and the device's copy of that is
 * the app's own (IndexedDB), cleared on sign-out. Workbox copies these functions into the worker as
 * source text: they must not refer to anything outside themselves, hence the figures written out.
 */
export const serverPagesRoute = {
  urlPattern: ({ request, url, sameOrigin }: { request: Request; url: URL; sameOrigin: boolean }) =>
    sameOrigin &&
    request.mode === 'navigate' &&
    !/^\/(api|dev)(\/|$)|^\/(terms|privacy)\/?$|^\/(embed|share)\//i.test(url.pathname),
  handler: async ({ request }: { request: Request }): Promise<Response> => {
    // The precache keeps index.html under its revision (`index.html?__WB_REVISION__=…`).
    const shell = async () => (await caches.match('/index.html', { ignoreSearch: true })) ?? Response.error();
    try {
      const answer = await Promise.race([
        fetch(request),
        // SHELL_AFTER_MS: 4 s without an answer (the request goes on; its answer is dropped).
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 4000)),
      ]);
      // A redirect (status 0: navigations follow redirects themselves) and a 4xx are the server's word.
      return answer && answer.status < 500 ? answer : await shell();
    } catch {
      return shell();
    }
  },
};
