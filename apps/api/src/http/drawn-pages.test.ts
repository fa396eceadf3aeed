import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type {
  ChooseSubscriptionInput,
  SubscriptionPageInput,
} from '@helix/shared/server-render';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';
import {
  CHOOSE_SUBSCRIPTION_TTL_MS,
  drawnChooseSubscription,
  drawnSubscription,
  type PagesRenderer,
} from './drawn-pages.ts';

let h: Harness;
let dir: string;
let app: Express;
let clock: number;
let failing: boolean;
/** Users the web app's guard would send elsewhere (the renderer answers null for them). */
let elsewhere: Set<number>;
let subscriptionCalls: SubscriptionPageInput[];
let planCalls: ChooseSubscriptionInput[];
let owner: Caller;

const INDEX =
  '<!doctype html><html><head><title>Helix</title></head><body><div id="root"></div></body></html>';

/** The web app's renderers stand in here (the real bundle is walked by apps/web/e2e/first-screens.e2e). */
const renderer: PagesRenderer = {
  renderHomeDocument: () => Promise.resolve(null),
  async renderSubscriptionDocument(_index, input) {
    if (failing) throw new Error('render failed');
    if (elsewhere.has(input.user.id)) return null;
    subscriptionCalls.push(input);
    return `<!doctype html><p>subscription of ${input.tenant}</p>`;
  },
  async renderChooseSubscriptionDocument(_index, input) {
    if (failing) throw new Error('render failed');
    planCalls.push(input);
    return `<!doctype html><p>plans drawn ${planCalls.length}</p>`;
  },
};

const cookies = (token: string) => `other=1; apiToken=${encodeURIComponent(token)}; auth-type=login`;

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  dir = await mkdtemp(path.join(os.tmpdir(), 'helix-drawn-pages-'));
  await writeFile(path.join(dir, 'index.html'), INDEX);
  const options = { webDist: dir, portalHost: 'portal.test', renderer: async () => renderer };
  app = express();
  app.get('/user/settings/subscription', drawnSubscription(h.deps, options));
  app.get('/choose-subscription', drawnChooseSubscription(h.deps, { ...options, now: () => clock }));
  app.use((_req, res) => void res.send('app shell'));
  owner = await customer(h);
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  subscriptionCalls = [];
  planCalls = [];
  failing = false;
  elsewhere = new Set();
  clock = 0;
});

const get = (url: string, cookie?: string, host = 'portal.test') => {
  const req = request(app).get(url).set('Host', host);
  return cookie ? req.set('Cookie', cookie) : req;
};
const subscription = (cookie?: string, host?: string) => get('/user/settings/subscription', cookie, host);
const api = (caller: Caller, route: string) =>
  request(h.app).get(`${caller.base}${route}`).set(bearer(caller.token));

describe('the drawn subscription page', () => {
  it('draws it with exactly what the page asks the API for the same session', async () => {
    const res = await subscription(cookies(owner.token));
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toContain(`subscription of ${owner.tenant.domainPrefix}`);
    const input = subscriptionCalls[0]!;
    expect(input.user).toEqual((await api(owner, '/user/info')).body);
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

  it('leaves out what the user may not read, and draws no other tenant', async () => {
    const viewer = await member(h, owner.tenant, []);
    await subscription(cookies(viewer.token));
    const other = await customer(h);
    await subscription(cookies(other.token));
    expect(subscriptionCalls.map((c) => c.tenant)).toEqual([
      owner.tenant.domainPrefix,
      other.tenant.domainPrefix,
    ]);
    expect(subscriptionCalls[0]!.summary).toBeNull();
    expect(subscriptionCalls[0]!.views).toBeNull();
  });

  it('leaves every other case to the app shell', async () => {
    const admin = await platformAdmin(h);
    for (const res of [
      await subscription(),
      await subscription(cookies('not-a-session-token-at-all-0000000000000')),
      await subscription(cookies(admin.token)),
      await subscription(cookies(owner.token), 'billing.acme.example'),
    ]) {
      expect(res.text).toBe('app shell');
    }
    failing = true;
    expect((await subscription(cookies(owner.token))).text).toBe('app shell');
    expect(subscriptionCalls).toHaveLength(0);
  });
});

describe('the drawn /choose-subscription', () => {
  it('draws the guest plans once for everyone, and again behind a visitor once it is old', async () => {
    clock = 10 * CHOOSE_SUBSCRIPTION_TTL_MS;
    const first = await get('/choose-subscription').set('Accept-Encoding', 'br');
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await get('/choose-subscription');
    expect(again.text).toBe(first.text);
    expect(planCalls).toHaveLength(1);
    expect(planCalls[0]!.plans).toEqual((await request(h.app).get('/api/guest/subscription/list')).body);
    // Old: this visitor still gets the page at once, and it is drawn again behind them.
    clock += CHOOSE_SUBSCRIPTION_TTL_MS + 1;
    expect((await get('/choose-subscription')).text).toContain('plans drawn 1');
    await expect.poll(() => planCalls.length).toBe(2);
    await expect.poll(async () => (await get('/choose-subscription')).text).toContain('plans drawn 2');
  });

  it('is drawn as the server starts when asked to', async () => {
    const warmed = express();
    warmed.get(
      '/choose-subscription',
      drawnChooseSubscription(h.deps, {
        webDist: dir,
        portalHost: 'portal.test',
        renderer: async () => renderer,
        warm: true,
      }),
    );
    await expect.poll(() => planCalls.length).toBe(1);
    const res = await request(warmed).get('/choose-subscription').set('Host', 'portal.test');
    expect(res.text).toContain('plans drawn 1');
    expect(planCalls).toHaveLength(1);
  });

  it('is the app shell for a signed-in visitor, a custom domain or an address with parameters', async () => {
    for (const res of [
      await get('/choose-subscription', cookies(owner.token)),
      await get('/choose-subscription', undefined, 'plans.acme.example'),
      await get('/choose-subscription?plan=1'),
    ]) {
      expect(res.text).toBe('app shell');
    }
  });
});
