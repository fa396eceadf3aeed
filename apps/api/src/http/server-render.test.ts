import type { Express } from 'express';
import request from 'supertest';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SessionRenderContext } from '@helix/shared/server-render';
import { freePort } from '@helix/stack/services/net';
import { COMMAND_CLIENT_OPTIONS, createRedis } from '@helix/server/redis';
import type { ServerDeps } from '@helix/server/deps';
import type { Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';
import { SERVER_RENDERS_PER_MINUTE, type ServerBundle } from './server-render-support.ts';
import { serverRenderedPage } from './server-render.ts';
import { cookies, getOf, inFrontOf, useServerRenderSetup } from './server-render-testing.ts';

const setup = useServerRenderSetup('helix-server-render-');
let h: Harness;
let app: Express;
let owner: Caller;
let failing: boolean;
/** Users the web app's guard would send elsewhere (renderPage answers null for them). */
let elsewhere: Set<number>;
/** What each render asked and got: the url, the context, and GET /user/all's first page. */
let renders: { url: string; ctx: SessionRenderContext; users: unknown }[];
/** The same for the home: GET /model/all as the grid asks it first. */
let homes: { ctx: SessionRenderContext; listing: unknown }[];
/** The same for the subscription page. */
let subscriptions: { ctx: SessionRenderContext; plans: unknown; summary: unknown; views: unknown }[];

const FIRST_PAGE = '/user/all?page=1&pageSize=20&sort=name&order=asc';
const FIRST_LISTING = '/model/all?sort=createdAt-Asc';

/**
 * The web bundle's renderPage stands in here, asking what the web app's users-list route prefetches
 * (apps/web/src/server-render/route-prefetch.ts) through the context's `get`: the real API routes
 * answer it, with the visitor's session (the real bundle is walked by apps/web/e2e/server-render.e2e).
 */
const renderer: ServerBundle = {
  async renderPage(_index, url, ctx) {
    if (ctx.user === null || elsewhere.has(ctx.user.id)) return null;
    if (url === '/user/home') {
      const listing = await ctx.get(FIRST_LISTING);
      if (failing) throw new Error('render failed');
      homes.push({ ctx, listing });
      return `<!doctype html><p>home of ${ctx.tenant}</p>`;
    }
    if (url === '/user/settings/subscription') {
      // The plans or the app shell; the summary and the usage left out when refused or unread.
      const optional = (p: string) => ctx.get(p).catch(() => null);
      const [plans, summary, views] = await Promise.all([
        ctx.get('/subscriptionplan/all'),
        optional('/subscription/summary'),
        optional('/views/summary'),
      ]);
      subscriptions.push({ ctx, plans, summary, views });
      return `<!doctype html><p>subscription of ${ctx.tenant}</p>`;
    }
    const users = await ctx.get(FIRST_PAGE);
    if (failing) throw new Error('render failed');
    renders.push({ url, ctx, users });
    return `<!doctype html><p>users of ${ctx.tenant}: ${JSON.stringify(users)}</p>`;
  },
};

/** The server render in front of the real API, as app.ts mounts it: its `get` reaches the same server. */
function appWith(deps: ServerDeps, api: Express): Express {
  const options = { webDist: setup.dir, portalHost: 'portal.test', renderer: async () => renderer };
  return inFrontOf(api, (served) => {
    served.get('/user/home', serverRenderedPage(deps, options, 'home page'));
    served.get('/user/settings/users-list', serverRenderedPage(deps, options, 'users list'));
    served.get('/user/settings/subscription', serverRenderedPage(deps, options, 'subscription page'));
  });
}

beforeAll(async () => {
  h = setup.h;
  app = appWith(h.deps, h.app);
  owner = await customer(h);
});
beforeEach(() => {
  renders = [];
  homes = [];
  subscriptions = [];
  failing = false;
  elsewhere = new Set();
});

const get = getOf(() => app);
const usersList = (cookie?: string, host?: string) => get('/user/settings/users-list', cookie, host);
const api = (caller: Caller, route: string) =>
  request(h.app).get(`${caller.base}${route}`).set(bearer(caller.token));

describe('a server-rendered page (the users list)', () => {
  it("renders it with exactly what the API's own route answers the same session, never cached", async () => {
    const res = await usersList(cookies(owner.token));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.text).toContain(`users of ${owner.tenant.domainPrefix}`);
    expect(renders).toHaveLength(1);
    const { url, ctx, users } = renders[0]!;
    expect(url).toBe('/user/settings/users-list');
    expect(ctx.user).toEqual((await api(owner, '/user/info')).body);
    expect(ctx.authType).toBe('login');
    expect(users).toEqual((await api(owner, FIRST_PAGE)).body);
  });

  it("renders each tenant's own users, never another tenant's", async () => {
    const other = await customer(h);
    await usersList(cookies(other.token));
    await usersList(cookies(owner.token));
    expect(renders.map((r) => r.ctx.tenant)).toEqual([other.tenant.domainPrefix, owner.tenant.domainPrefix]);
    const emails = (users: unknown) => (users as { rows: { email: string }[] }).rows.map((u) => u.email);
    expect(emails(renders[0]!.users)).toEqual([other.user.email]);
    expect(emails(renders[1]!.users)).not.toContain(other.user.email);
  });

  it('leaves every other case to the app shell', async () => {
    const noRights = await member(h, owner.tenant, []);
    const admin = await platformAdmin(h);
    for (const res of [
      await usersList(),
      await usersList('apiToken='),
      await usersList(cookies('not-a-session-token-at-all-0000000000000')),
      // GET /user/all refuses them (403): the API's own check, through `get`.
      await usersList(cookies(noRights.token)),
      await usersList(cookies(admin.token)),
      await usersList(cookies(owner.token), 'users.acme.example'),
      await get('/user/settings/users-list?x=1', cookies(owner.token)),
    ]) {
      expect(res.text).toBe('app shell');
    }
    expect(renders).toHaveLength(0);
    // The web app's guard would send the user elsewhere; the render fails.
    elsewhere.add(owner.user.id);
    expect((await usersList(cookies(owner.token))).text).toBe('app shell');
    elsewhere.clear();
    failing = true;
    expect((await usersList(cookies(owner.token))).text).toBe('app shell');
  });

  it('answers the app shell while Redis is down', async () => {
    const redis = createRedis(`redis://127.0.0.1:${await freePort()}`, COMMAND_CLIENT_OPTIONS);
    try {
      const down = appWith({ ...h.deps, redis }, h.app);
      for (let i = 0; i < 2; i += 1) {
        const res = await get('/user/settings/users-list', cookies(owner.token), 'portal.test', down);
        expect(res.text).toBe('app shell');
      }
      expect(renders).toHaveLength(0);
    } finally {
      redis.disconnect();
    }
  });
});

describe('a server-rendered page (the subscription page)', () => {
  const subscription = (cookie?: string) => get('/user/settings/subscription', cookie);

  it('renders it with exactly what the page asks the API for the same session', async () => {
    const res = await subscription(cookies(owner.token));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain(`subscription of ${owner.tenant.domainPrefix}`);
    const input = subscriptions[0]!;
    expect(input.ctx.user).toEqual((await api(owner, '/user/info')).body);
    expect(input.plans).toEqual((await api(owner, '/subscriptionplan/all')).body);
    // Each answer as the API gives it, or left out when the API refuses or fails it.
    const answerOf = async (route: string) => {
      const answer = await api(owner, route);
      return answer.status === 200 ? answer.body : null;
    };
    expect(input.summary).toEqual(await answerOf('/subscription/summary'));
    expect(input.views).toEqual(await answerOf('/views/summary'));
    expect(input.views).not.toBeNull();
  });

  it('leaves out what the user may not read, and renders no other tenant', async () => {
    const viewer = await member(h, owner.tenant, []);
    await subscription(cookies(viewer.token));
    const other = await customer(h);
    await subscription(cookies(other.token));
    expect(subscriptions.map((c) => c.ctx.tenant)).toEqual([
      owner.tenant.domainPrefix,
      other.tenant.domainPrefix,
    ]);
    expect(subscriptions[0]!.summary).toBeNull();
    expect(subscriptions[0]!.views).toBeNull();
    expect(subscriptions[1]!.plans).toEqual((await api(other, '/subscriptionplan/all')).body);
  });

  it('leaves the rest to the app shell', async () => {
    const admin = await platformAdmin(h);
    for (const res of [
      await subscription(),
      await subscription(cookies('not-a-session-token-at-all-0000000000000')),
      await subscription(cookies(admin.token)),
      await get('/user/settings/subscription?x=1', cookies(owner.token)),
    ]) {
      expect(res.text).toBe('app shell');
    }
    expect(subscriptions).toHaveLength(0);
  });
});

describe('a server-rendered page (the home)', () => {
  const home = (cookie?: string, host?: string, url = '/user/home') => get(url, cookie, host);

  it("renders the session user's home with exactly what GET /model/all answers them, never cached", async () => {
    const res = await home(cookies(owner.token)).set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toContain(`home of ${owner.tenant.domainPrefix}`);
    expect(homes).toHaveLength(1);
    const { ctx, listing } = homes[0]!;
    expect(ctx.tenant).toBe(owner.tenant.domainPrefix);
    expect(ctx.authType).toBe('login');
    expect(ctx.user).toEqual((await api(owner, '/user/info')).body);
    expect(listing).toEqual((await api(owner, FIRST_LISTING)).body);
    expect(listing).toEqual((await api(owner, '/model/all')).body);
  });

  it("renders each tenant's own home", async () => {
    const other = await customer(h);
    await home(cookies(other.token));
    await home(cookies(owner.token));
    expect(homes.map((c) => c.ctx.tenant)).toEqual([other.tenant.domainPrefix, owner.tenant.domainPrefix]);
    expect(homes.map((c) => c.ctx.user.id)).toEqual([other.user.id, owner.user.id]);
  });

  it('leaves every other case to the app shell', async () => {
    const noRights = await member(h, owner.tenant, []);
    const admin = await platformAdmin(h);
    for (const res of [
      await home(),
      await home('apiToken='),
      await home(cookies('not-a-session-token-at-all-0000000000000')),
      // GET /model/all refuses a user who may not list models (403): the API's own check.
      await home(cookies(noRights.token)),
      await home(cookies(owner.token), 'models.acme.example'),
      // The usage e-mail's link asks the app for the Add Views dialog: the app starts at once.
      await home(cookies(owner.token), 'portal.test', '/user/home?buy-views=1'),
      await home(cookies(admin.token)),
    ]) {
      expect(res.status).toBe(200);
      expect(res.text).toBe('app shell');
    }
    expect(homes).toHaveLength(0);
  });

  it('renders for a session SERVER_RENDERS_PER_MINUTE times a minute, then serves the app shell', async () => {
    const busy = await member(h, owner.tenant, ['User']);
    const texts: string[] = [];
    for (let i = 0; i <= SERVER_RENDERS_PER_MINUTE; i += 1)
      texts.push((await home(cookies(busy.token))).text);
    expect(texts.filter((t) => t.startsWith('<!doctype html><p>home of'))).toHaveLength(
      SERVER_RENDERS_PER_MINUTE,
    );
    expect(texts.at(-1)).toBe('app shell');
    // Other sessions are not affected.
    expect((await home(cookies(owner.token))).text).toContain('home of');
  });

  it('serves the app shell to a user the route guard sends elsewhere, and when the render fails', async () => {
    elsewhere.add(owner.user.id);
    expect((await home(cookies(owner.token))).text).toBe('app shell');
    elsewhere.clear();
    failing = true;
    expect((await home(cookies(owner.token))).text).toBe('app shell');
  });

  it('sends brotli to a browser that takes it', async () => {
    const res = await home(cookies(owner.token)).set('Accept-Encoding', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    // supertest decodes it, as a browser does.
    expect(res.text).toContain('home of');
  });
});
