import { afterEach, describe, expect, it, vi } from 'vitest';
import { serverPagesRoute } from './server-pages-route';

const SHELL = '<div id="root"><p class="boot-screen" role="status">Loading…</p></div>';
const DRAWN = '<div id="root" data-server-rendered="users-list">…</div>';

/** A page's request (Node's Request cannot be built with mode 'navigate'; the handler does not read it). */
const navigation = (path: string) => new Request(`https://portal.test${path}`);

const matches = (path: string, mode: 'navigate' | 'cors' = 'navigate', sameOrigin = true) =>
  serverPagesRoute.urlPattern({
    request: { mode } as Request,
    url: new URL(`https://portal.test${path}`),
    sameOrigin,
  });

/** The precache as caches.match sees it: index.html under its revision. */
function precache() {
  const match = vi.fn(async (url: string, options?: CacheQueryOptions) =>
    url === '/index.html' && options?.ignoreSearch ? new Response(SHELL) : undefined,
  );
  vi.stubGlobal('caches', { match });
  return match;
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('the service worker route for pages', () => {
  it("takes the portal's page navigations, not the API, dev, legal, share or embed paths", () => {
    for (const path of ['/', '/login', '/login/demo', '/user/home', '/user/settings/users-list', '/stats'])
      expect(matches(path), path).toBe(true);
    for (const path of [
      '/api/model/all',
      '/api',
      '/dev/mail',
      '/terms',
      '/privacy/',
      '/embed/abc',
      '/Share/abc',
    ])
      expect(matches(path), path).toBe(false);
    expect(matches('/user/home', 'cors')).toBe(false);
    expect(matches('/user/home', 'navigate', false)).toBe(false);
  });

  it("answers with the server's drawn page when the server answers", async () => {
    const match = precache();
    vi.stubGlobal('fetch', async () => new Response(DRAWN, { status: 200 }));
    const answer = await serverPagesRoute.handler({ request: navigation('/user/settings/users-list') });
    expect(await answer.text()).toBe(DRAWN);
    expect(match).not.toHaveBeenCalled();
  });

  it("keeps the server's word on a 4xx and a redirect", async () => {
    precache();
    vi.stubGlobal('fetch', async () => new Response('Not found', { status: 404 }));
    expect((await serverPagesRoute.handler({ request: navigation('/nowhere') })).status).toBe(404);
  });

  it('opens the app shell offline and on a 5xx', async () => {
    precache();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await (await serverPagesRoute.handler({ request: navigation('/user/home') })).text()).toBe(SHELL);
    vi.stubGlobal('fetch', async () => new Response('Bad gateway', { status: 502 }));
    expect(await (await serverPagesRoute.handler({ request: navigation('/user/home') })).text()).toBe(SHELL);
  });

  it('opens the app shell when the server has not answered within 4 s', async () => {
    vi.useFakeTimers();
    precache();
    vi.stubGlobal('fetch', () => new Promise<Response>(() => undefined));
    const answer = serverPagesRoute.handler({ request: navigation('/user/home') });
    await vi.advanceTimersByTimeAsync(3_999);
    let settled = false;
    void answer.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await (await answer).text()).toBe(SHELL);
  });

  it('works as source text on its own (workbox copies it into the worker)', async () => {
    precache();
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    const copied = new Function(
      `return ${serverPagesRoute.handler.toString()}`,
    )() as typeof serverPagesRoute.handler;
    expect(await (await copied({ request: navigation('/user/home') })).text()).toBe(SHELL);
  });
});
