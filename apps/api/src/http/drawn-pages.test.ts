import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ChooseSubscriptionInput } from '@helix/shared/server-render';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { customer, type Caller } from '../../test/models.ts';
import { CHOOSE_SUBSCRIPTION_TTL_MS, drawnChooseSubscription, type PagesRenderer } from './drawn-pages.ts';

let h: Harness;
let dir: string;
let app: Express;
let clock: number;
let failing: boolean;
let planCalls: ChooseSubscriptionInput[];
let owner: Caller;

const INDEX =
  '<!doctype html><html><head><title>Helix</title></head><body><div id="root"></div></body></html>';

/** The web app's renderers stand in here (the real bundle is walked by apps/web/e2e/first-screens.e2e). */
const renderer: PagesRenderer = {
  renderPage: () => Promise.resolve(null),
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
  app.get('/choose-subscription', drawnChooseSubscription(h.deps, { ...options, now: () => clock }));
  app.use((_req, res) => void res.send('app shell'));
  owner = await customer(h);
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  planCalls = [];
  failing = false;
  clock = 0;
});

const get = (url: string, cookie?: string, host = 'portal.test') => {
  const req = request(app).get(url).set('Host', host);
  return cookie ? req.set('Cookie', cookie) : req;
};

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
