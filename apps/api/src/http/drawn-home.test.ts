import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import express, { type Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { seedRoles } from '@helix/server/testing/factories';
import { createHarness, type Harness } from '../../test/harness.ts';
import { bearer, customer, member, platformAdmin, type Caller } from '../../test/models.ts';
import { DRAWN_HOME_PER_MINUTE, drawnHome, type HomePageInput, type HomeRenderer } from './drawn-home.ts';

let h: Harness;
let dir: string;
let app: Express;
let calls: { indexHtml: string; input: HomePageInput }[];
let failing: boolean;
/** Users the web app's guard would send elsewhere (the renderer answers null for them). */
let elsewhere: Set<number>;
let owner: Caller;

const INDEX =
  '<!doctype html><html><head><title>Helix</title></head><body><div id="root"></div></body></html>';

/** The web app's renderer stands in here (its real bundle is walked by apps/web/e2e/home-page.e2e). */
const renderer: HomeRenderer = {
  async renderHomeDocument(indexHtml, input) {
    if (failing) throw new Error('render failed');
    if (elsewhere.has((input.user as { id: number }).id)) return null;
    calls.push({ indexHtml, input });
    return `<!doctype html><p>drawn for ${input.tenant}</p>`;
  },
};

const cookies = (token: string, extra = '') =>
  `other=1; apiToken=${encodeURIComponent(token)}; auth-type=login${extra}`;

beforeAll(async () => {
  h = await createHarness();
  await seedRoles(h.db);
  dir = await mkdtemp(path.join(os.tmpdir(), 'helix-drawn-home-'));
  await writeFile(path.join(dir, 'index.html'), INDEX);
  app = express();
  app.get(
    '/user/home',
    drawnHome(h.deps, { webDist: dir, portalHost: 'portal.test', renderer: async () => renderer }),
  );
  app.use((_req, res) => void res.send('app shell'));
  owner = await customer(h);
});
afterAll(async () => {
  await h?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => {
  calls = [];
  failing = false;
  elsewhere = new Set();
});

const home = (cookie?: string, host = 'portal.test', url = '/user/home') => {
  const req = request(app).get(url).set('Host', host);
  return cookie ? req.set('Cookie', cookie) : req;
};

describe('the drawn home page', () => {
  it("draws the session user's home with exactly what the API answers them, never cached", async () => {
    const res = await home(cookies(owner.token)).set('Accept-Encoding', 'gzip');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers.vary).toMatch(/Cookie/);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.text).toContain(`drawn for ${owner.tenant.domainPrefix}`);

    expect(calls).toHaveLength(1);
    const { indexHtml, input } = calls[0]!;
    expect(indexHtml).toBe(INDEX);
    expect(input.tenant).toBe(owner.tenant.domainPrefix);
    expect(input.authType).toBe('login');
    const info = await request(h.app).get(`${owner.base}/user/info`).set(bearer(owner.token));
    expect(input.user).toEqual(info.body);
    const listing = await request(h.app).get(`${owner.base}/model/all`).set(bearer(owner.token));
    expect(input.listing).toEqual(listing.body);
  });

  it("draws each tenant's own home", async () => {
    const other = await customer(h);
    await home(cookies(other.token));
    await home(cookies(owner.token));
    expect(calls.map((c) => c.input.tenant)).toEqual([other.tenant.domainPrefix, owner.tenant.domainPrefix]);
    expect(calls.map((c) => (c.input.user as { id: number }).id)).toEqual([other.user.id, owner.user.id]);
  });

  it('leaves every other case to the app shell', async () => {
    const noRights = await member(h, owner.tenant, []);
    const admin = await platformAdmin(h);
    for (const res of [
      await home(),
      await home('apiToken='),
      await home(cookies('not-a-session-token-at-all-0000000000000')),
      await home(cookies(noRights.token)),
      await home(cookies(owner.token), 'models.acme.example'),
      // The usage e-mail's link asks the app for the Add Views dialog: the app starts at once.
      await home(cookies(owner.token), 'portal.test', '/user/home?buy-views=1'),
      await home(cookies(admin.token)),
    ]) {
      expect(res.status).toBe(200);
      expect(res.text).toBe('app shell');
    }
    expect(calls).toHaveLength(0);
  });

  it('draws a session DRAWN_HOME_PER_MINUTE times a minute, then serves the app shell', async () => {
    const busy = await member(h, owner.tenant, ['User']);
    const texts: string[] = [];
    for (let i = 0; i <= DRAWN_HOME_PER_MINUTE; i += 1) texts.push((await home(cookies(busy.token))).text);
    expect(texts.filter((t) => t.startsWith('<!doctype html><p>drawn'))).toHaveLength(DRAWN_HOME_PER_MINUTE);
    expect(texts.at(-1)).toBe('app shell');
    // Other sessions are not affected.
    expect((await home(cookies(owner.token))).text).toContain('drawn for');
  });

  it('serves the app shell to a user the route guard sends elsewhere', async () => {
    elsewhere.add(owner.user.id);
    expect((await home(cookies(owner.token))).text).toBe('app shell');
  });

  it('serves the app shell when the drawing fails', async () => {
    failing = true;
    const res = await home(cookies(owner.token));
    expect(res.text).toBe('app shell');
  });

  it('sends brotli to a browser that takes it', async () => {
    const res = await home(cookies(owner.token)).set('Accept-Encoding', 'br');
    expect(res.headers['content-encoding']).toBe('br');
    // supertest decodes it, as a browser does.
    expect(res.text).toContain('drawn for');
  });
});
