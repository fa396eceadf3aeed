import express, { type Express } from 'express';
import request from 'supertest';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { GuestRenderContext, ServerBundle } from '@helix/shared/server-render';
import type { ServerDeps } from '@helix/server/deps';
import {
  createPlan,
  createTenant,
  CUSTOMER_PLAN_PERMISSIONS,
  uniqueName,
} from '@helix/server/testing/factories';
import type { Harness } from '../../test/harness.ts';
import { bearer, customer, type Caller } from '../../test/models.ts';
import {
  brandedLogin,
  CHOOSE_SUBSCRIPTION,
  GUEST_PAGE_TTL_MS,
  guestRenderedPage,
} from './server-render-guest.ts';
import { cookies, getOf, inFrontOf, useServerRenderSetup } from './server-render-testing.ts';

const setup = useServerRenderSetup('helix-server-render-guest-');
let h: Harness;
let app: Express;
let clock: number;
let failing: boolean;
/** What each render was asked with and got: the context and GET /guest/subscription/list's answer. */
let renders: { url: string; ctx: GuestRenderContext; plans: unknown }[];
let owner: Caller;
/** The branded logins rendered: the address and the look they were given. */
let logins: { url: string; look: unknown }[];

/**
 * The web bundle's renderPage stands in here, asking what the web app's /choose-subscription route
 * prefetches (apps/web/src/server-render/route-prefetch.ts) through the guest context's `get`: the real
 * API answers it (the real bundle is walked by apps/web/e2e/first-screens.e2e).
 */
const renderer: ServerBundle = {
  async renderPage(_index, url, ctx) {
    if (ctx.user !== null) return null;
    if (url.startsWith('/login')) {
      logins.push({ url, look: ctx.look });
      const look = ctx.look as { name?: string; primaryColor?: string } | null;
      return `<!doctype html><p>login of ${look?.name ?? 'Helix'} in ${look?.primaryColor ?? 'blue'}</p>`;
    }
    const plans = await ctx.get('/guest/subscription/list');
    if (failing) throw new Error('render failed');
    renders.push({ url, ctx, plans });
    return `<!doctype html><p>plans rendered ${renders.length}</p>`;
  },
};

/** The guest page in front of the real API, as app.ts mounts it: its `get` reaches the same server. */
function appWith(deps: ServerDeps, api: Express, options: { warm?: boolean } = {}): Express {
  const guest = guestRenderedPage(
    deps,
    {
      webDist: setup.dir,
      portalHost: 'portal.test',
      renderer: async () => renderer,
      now: () => clock,
      warm: CHOOSE_SUBSCRIPTION,
    },
    (req) => (req.hostname === 'portal.test' ? CHOOSE_SUBSCRIPTION : null),
  );
  return inFrontOf(api, (served) => {
    if (options.warm) served.use(guest.warm);
    served.get('/choose-subscription', guest.page);
  });
}

beforeAll(async () => {
  h = setup.h;
  app = appWith(h.deps, h.app);
  owner = await customer(h);
  // The public route answered once before: its first answer on a cold, busy machine is not timed here.
  await request(h.app).get('/api/guest/subscription/list');
});
beforeEach(() => {
  renders = [];
  logins = [];
  failing = false;
  clock = 0;
});

const get = getOf(() => app);

describe('a server-rendered guest page (/choose-subscription)', () => {
  it('renders the guest plans the public route answers once for everyone, and again behind a visitor once it is old', async () => {
    clock = 10 * GUEST_PAGE_TTL_MS;
    const first = await get('/choose-subscription').set('Accept-Encoding', 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.vary).toMatch(/Cookie/);
    const again = await get('/choose-subscription');
    expect(again.text).toBe(first.text);
    expect(renders).toHaveLength(1);
    expect(renders[0]!.url).toBe('/choose-subscription');
    expect(renders[0]!.ctx.user).toBeNull();
    expect(renders[0]!.ctx.google).toBe(true);
    expect(renders[0]!.plans).toEqual((await request(h.app).get('/api/guest/subscription/list')).body);
    // Old: this visitor still gets the page at once, and it is rendered again behind them.
    clock += GUEST_PAGE_TTL_MS + 1;
    expect((await get('/choose-subscription')).text).toContain('plans rendered 1');
    await expect.poll(() => renders.length).toBe(2);
    await expect.poll(async () => (await get('/choose-subscription')).text).toContain('plans rendered 2');
  });

  it("is rendered at the server's first request, whatever it asks", async () => {
    const warmed = appWith(h.deps, h.app, { warm: true });
    await get('/api/health', undefined, 'portal.test', warmed);
    await expect.poll(() => renders.length).toBe(1);
    const res = await get('/choose-subscription', undefined, 'portal.test', warmed);
    expect(res.text).toContain('plans rendered 1');
    expect(renders).toHaveLength(1);
  });

  it('asks nothing but public guest routes', async () => {
    const { guestGet } = await import('./server-render-guest.ts');
    await expect(guestGet('http://127.0.0.1:9')('/user/all')).rejects.toThrow(/not a guest path/);
  });

  it('is the app shell for a signed-in visitor, a custom domain, an address with parameters or a failed render', async () => {
    for (const res of [
      await get('/choose-subscription', cookies(owner.token)),
      await get('/choose-subscription', undefined, 'plans.acme.example'),
      await get('/choose-subscription?plan=1'),
    ]) {
      expect(res.text).toBe('app shell');
    }
    failing = true;
    const fresh = appWith(h.deps, h.app);
    expect((await get('/choose-subscription', undefined, 'portal.test', fresh)).text).toBe('app shell');
    expect(renders).toHaveLength(0);
  });
});

describe("a school's login, server rendered with its look", () => {
  let login: Express;
  beforeAll(async () => {
    await createTenant(h.db, {
      name: 'Acme School',
      customBrandName: 'acmeschool',
      customDomainName: 'models.acme.example',
    });
    const guest = guestRenderedPage(
      h.deps,
      { webDist: setup.dir, portalHost: 'portal.test', renderer: async () => renderer },
      brandedLogin(h.deps, 'portal.test'),
    );
    login = express();
    login.get(['/login', '/login/:brand'], guest.page);
    login.use((_req, res) => void res.send('app shell'));
  });

  it('renders /login/{brand} on any host and /login on the school’s custom domain with the look the public lookup answers', async () => {
    const lookOf = async (body: object, host = 'portal.test') =>
      (await request(h.app).post('/api/tenant/custom-branding-detail').set('Host', host).send(body)).body;
    const branded = await get('/login/AcmeSchool', undefined, 'portal.test', login);
    expect(branded.text).toContain('login of Acme School');
    expect(branded.headers['cache-control']).toBe('no-cache');
    const onDomain = await get('/login', undefined, 'models.acme.example', login);
    expect(onDomain.text).toContain('login of Acme School');
    expect(logins.map((l) => l.url)).toEqual(['/login/AcmeSchool', '/login']);
    expect(logins[0]!.look).toEqual(await lookOf({ brandName: 'acmeschool' }));
    expect(logins[1]!.look).toEqual(await lookOf({}, 'models.acme.example'));
    // One render per brand and host, served again to the next visitor.
    await get('/login/AcmeSchool', undefined, 'portal.test', login);
    expect(logins).toHaveLength(2);
  });

  it("leaves the portal's own /login, an unknown brand, a host without a look and a signed-in visitor to the app shell", async () => {
    for (const res of [
      await get('/login', undefined, 'portal.test', login),
      await get('/login/no-such-school', undefined, 'portal.test', login),
      await get('/login', undefined, 'unknown.example', login),
      await get('/login/acmeschool', cookies(owner.token), 'portal.test', login),
      await get('/login/acmeschool?next=1', undefined, 'portal.test', login),
    ]) {
      expect(res.text).toBe('app shell');
    }
    expect(logins).toHaveLength(0);
  });
});

describe("a school's login after its branding changed", () => {
  it('carries the new colour at the next load, in every API process', async () => {
    const school = await customer(h, {
      plan: await createPlan(h.db, { customBranding: true, permissions: CUSTOMER_PLAN_PERMISSIONS }),
    });
    const brand = uniqueName('look').toLowerCase();
    const update = (primaryColor: string) =>
      request(h.app)
        .post(`${school.base}/tenant/update`)
        .set(bearer(school.token))
        .field('customBrandName', brand)
        .field('primaryColor', primaryColor)
        .expect(200);
    await update('#112233');
    // Two API processes: two caches of renders, one Redis.
    const processes = [1, 2].map(() => {
      const guest = guestRenderedPage(
        h.deps,
        { webDist: setup.dir, portalHost: 'portal.test', renderer: async () => renderer },
        brandedLogin(h.deps, 'portal.test'),
      );
      const login = express();
      login.get('/login/:brand', guest.page);
      return login;
    });
    for (const login of processes)
      expect((await get(`/login/${brand}`, undefined, 'portal.test', login)).text).toContain('#112233');
    await update('#445566');
    for (const login of processes) {
      const again = await get(`/login/${brand}`, undefined, 'portal.test', login);
      expect(again.text).toContain('#445566');
      expect(again.text).not.toContain('#112233');
    }
    // Rendered once per process and look: the next visitor is served the same render.
    await get(`/login/${brand}`, undefined, 'portal.test', processes[0]);
    expect(logins).toHaveLength(4);
  });
});
