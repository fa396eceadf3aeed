import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_EMBED_HOSTS, MSG } from '@helix/shared';
import { EmbedLinkView } from '@helix/shared/schemas/embed-link';
import { sha256 } from '@helix/server/tokens';
import { peekViewerToken } from '@helix/server/views/viewer-token';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  member,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';
import { writeLinkPageBundle } from '../../test/link-page-bundle.ts';

/**
 * A link limited to some sites (issue 20 point 2, docs/links.md "Where a link may be shown"): the
 * owner's list is checked and normalised, the embed page's frame-ancestors lists it, and a load shown
 * anywhere else counts nothing, decided by the server.
 */
let h: ModelHarness;
let dir: string;
/** With the built pages (frame-ancestors are those pages' headers). */
let pages: Express;
let owner: Caller;
let modelId: number;

const VIEWER = 'http://viewer.test';
const SHELL = '<!doctype html><html><head><title>Helix</title></head><body></body></html>';

beforeAll(async () => {
  h = await createModelHarness();
  dir = await mkdtemp(path.join(os.tmpdir(), 'helix-hosts-'));
  await mkdir(path.join(dir, 'web'), { recursive: true });
  await writeFile(path.join(dir, 'web', 'embed.html'), SHELL);
  await writeFile(path.join(dir, 'web', 'index.html'), SHELL);
  await writeLinkPageBundle(path.join(dir, 'web'));
  pages = h.appWith({ WEB_DIST_DIR: path.join(dir, 'web') });
  owner = await customer(h);
  modelId = (await createModel(h, { name: 'Hosts heart' })).id;
});
afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const post = (caller: Caller, route: string, body: object) =>
  request(h.app).post(`${caller.base}${route}`).set(bearer(caller.token)).send(body);

async function makeLink(allowedHosts?: string[]) {
  const res = await post(owner, '/model/embed', {
    id: modelId,
    settings: ['info'],
    ...(allowedHosts ? { allowedHosts } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = res.body.token as string;
  const row = await h.db.embedToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
  return { token, id: row.id };
}

async function linkView(id: number) {
  const res = await request(h.app).get(`${owner.base}/model/links`).set(bearer(owner.token));
  expect(res.status).toBe(200);
  return EmbedLinkView.parse(res.body.links.find((l: { id: number }) => l.id === id));
}

const frameAncestors = (res: request.Response) =>
  /frame-ancestors ([^;]*)/.exec(res.headers['content-security-policy'] as string)?.[1];

/** The embed or share page's detail call, as the page sends it. */
const detail = (token: string, host?: object, headers: Record<string, string> = {}) =>
  request(h.app)
    .post('/api/model/embed/detail')
    .set(headers)
    .send({ token, ...(host ? { host } : {}) });

/** The viewer frame's load (the call that counts), with the viewer token and ancestors it sends. */
function viewerLoad(url: string, over: { viewer?: string | null; ancestors?: string } = {}) {
  const query = Object.fromEntries(new URL(url).searchParams.entries());
  // The page's model file hint is the viewer's own (apps/viewer/src/model-hint.ts), never sent on.
  delete query.glb;
  if (over.viewer === null) delete query.viewer;
  else if (over.viewer !== undefined) query.viewer = over.viewer;
  if (over.ancestors !== undefined) query.ancestors = over.ancestors;
  return request(h.app).get('/api/viewer/model').query(query).set('Origin', VIEWER);
}

describe('the allowlist as the owner writes it', () => {
  it('is normalised (lower case, punycode, final dot, duplicates) when a link is made and presented on the Links page', async () => {
    const { id } = await makeLink(['École.FR', '*.Schule.DE', 'school.org.', ' school.org ', '10.0.0.7']);
    expect((await linkView(id)).allowedHosts).toEqual([
      'xn--cole-9oa.fr',
      '*.schule.de',
      'school.org',
      '10.0.0.7',
    ]);
    // Without a list: any site.
    const open = await makeLink();
    expect((await linkView(open.id)).allowedHosts).toEqual([]);
  });

  it('refuses anything that is not a domain pattern, naming the entry, and more than the maximum', async () => {
    const refused = async (hosts: string[], field: string, message: string) => {
      const res = await post(owner, '/model/embed', { id: modelId, settings: [], allowedHosts: hosts });
      expect(res.status, JSON.stringify(hosts)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors[field]).toBe(message);
    };
    await refused(['https://school.org'], 'allowedHosts.0', MSG.embedHostNotDomain('https://school.org'));
    await refused(
      ['ok.org', 'school.org/lessons'],
      'allowedHosts.1',
      MSG.embedHostNotDomain('school.org/lessons'),
    );
    await refused(['school.org:8080'], 'allowedHosts.0', MSG.embedHostNotDomain('school.org:8080'));
    await refused(['user@school.org'], 'allowedHosts.0', MSG.embedHostNotDomain('user@school.org'));
    await refused(['a*.school.org'], 'allowedHosts.0', MSG.embedHostWildcard('a*.school.org'));
    await refused(['www.*.school.org'], 'allowedHosts.0', MSG.embedHostWildcard('www.*.school.org'));
    await refused(['*.10.0.0.7'], 'allowedHosts.0', MSG.embedHostWildcard('*.10.0.0.7'));
    await refused(['*.org'], 'allowedHosts.0', MSG.embedHostTooBroad('*.org'));
    await refused(['*'], 'allowedHosts.0', MSG.embedHostWildcard('*'));
    await refused(['-bad-.org'], 'allowedHosts.0', MSG.embedHostInvalid('-bad-.org'));
    await refused(['under_score.org'], 'allowedHosts.0', MSG.embedHostInvalid('under_score.org'));
    await refused([''], 'allowedHosts.0', MSG.embedHostEmpty);
    await refused([`${'a'.repeat(64)}.org`], 'allowedHosts.0', MSG.embedHostInvalid(`${'a'.repeat(64)}.org`));
    const many = Array.from({ length: MAX_EMBED_HOSTS + 1 }, (_, i) => `site${i}.org`);
    await refused(many, 'allowedHosts', MSG.embedHostsTooMany(MAX_EMBED_HOSTS));
    const notText = await post(owner, '/model/embed', { id: modelId, settings: [], allowedHosts: 'a.org' });
    expect(notText.status).toBe(400);
  });

  it('is changed on the Links page (POST /model/links/hosts): checked the same way, scoped, audited, not on a revoked link', async () => {
    const { id } = await makeLink();
    const res = await post(owner, '/model/links/hosts', {
      id,
      allowedHosts: ['*.Hillside.test', 'hillside.test'],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(EmbedLinkView.parse(res.body).allowedHosts).toEqual(['*.hillside.test', 'hillside.test']);
    const bad = await post(owner, '/model/links/hosts', { id, allowedHosts: ['http://x.org'] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors['allowedHosts.0']).toBe(MSG.embedHostNotDomain('http://x.org'));
    expect((await post(owner, '/model/links/hosts', { id })).status).toBe(400);
    expect((await post(owner, '/model/links/hosts', { id, allowedHosts: [], extra: 1 })).status).toBe(400);
    const event = await h.db.auditEvent.findFirst({ where: { action: 'link.hosts', targetId: String(id) } });
    expect(event).not.toBeNull();

    // Another tenant's link, or another user's for a non-owner: 404; without Model.embed: 403.
    const other = await customer(h);
    expect((await post(other, '/model/links/hosts', { id, allowedHosts: [] })).status).toBe(404);
    const colleague = await member(h, owner.tenant, ['Admin']);
    expect((await post(colleague, '/model/links/hosts', { id, allowedHosts: [] })).status).toBe(404);
    const viewerOnly = await member(h, owner.tenant, ['User']);
    const forbidden = await post(viewerOnly, '/model/links/hosts', { id, allowedHosts: [] });
    expect([403, 404]).toContain(forbidden.status);

    // Cleared: any site again.
    const cleared = await post(owner, '/model/links/hosts', { id, allowedHosts: [] });
    expect(cleared.body.allowedHosts).toEqual([]);
    await post(owner, '/model/links/revoke', { id }).expect(200);
    const revoked = await post(owner, '/model/links/hosts', { id, allowedHosts: ['a.org'] });
    expect(revoked.status).toBe(409);
  });
});

describe("the embed page's frame-ancestors", () => {
  it('lists the sites of a limited link (both schemes, any port), any site otherwise, and follows a change', async () => {
    const { token, id } = await makeLink(['hillside.test', '*.hillside.test']);
    const strict =
      'https://hillside.test:* http://hillside.test:* https://*.hillside.test:* http://*.hillside.test:*';
    for (const page of ['embed', 'share']) {
      const res = await request(pages).get(`/${page}/${token}`);
      expect(res.status).toBe(200);
      expect(frameAncestors(res), page).toBe(strict);
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers.vary).toMatch(/Referer/);
    }
    // Framed by an allowed page, or by a page the server cannot place: the strict list.
    const allowed = await request(pages)
      .get(`/embed/${token}`)
      .set('Referer', 'https://www.hillside.test/biology');
    expect(frameAncestors(allowed)).toBe(strict);
    // Framed by another site's page: that page only, so its visitors see why the model is not shown.
    const elsewhere = await request(pages)
      .get(`/embed/${token}`)
      .set('Referer', 'https://blog.example:8443/post/1');
    expect(frameAncestors(elsewhere)).toBe('https://blog.example:8443');

    const open = await makeLink();
    expect(frameAncestors(await request(pages).get(`/embed/${open.token}`))).toBe('*');
    await post(owner, '/model/links/hosts', { id, allowedHosts: [] }).expect(200);
    expect(frameAncestors(await request(pages).get(`/embed/${token}`))).toBe('*');
    await post(owner, '/model/links/hosts', { id, allowedHosts: ['other.test'] }).expect(200);
    expect(frameAncestors(await request(pages).get(`/embed/${token}`))).toBe(
      'https://other.test:* http://other.test:*',
    );
    // The portal's own pages keep their own rule.
    expect(frameAncestors(await request(pages).get('/user/home'))).toBe("'self'");
  });
});

describe('counting a limited link', () => {
  it('counts a load inside an allowed site, and nothing from another site, a page on its own or a forged frame', async () => {
    const { token, id } = await makeLink(['*.hillside.test']);
    const inside = {
      ancestors: ['https://www.hillside.test'],
      referrer: 'https://www.hillside.test/',
      framed: true,
    };

    // Inside an allowed site: a viewer token, and the viewer's load counts.
    const ok = await detail(token, inside, { 'Sec-Fetch-Site': 'same-origin' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.viewer).toMatch(/^vw1\./);
    const counted = await viewerLoad(ok.body.url as string, {
      ancestors: 'http://portal.test https://www.hillside.test',
    });
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect((await linkView(id)).views).toBe(1);

    // Another site, a page opened on its own, a sandboxed frame, a detail asked by another site's page.
    const refusals: [object | undefined, Record<string, string>?][] = [
      [{ ancestors: ['https://blog.example'], referrer: 'https://blog.example/', framed: true }],
      [{ ancestors: ['https://www.hillside.test', 'https://blog.example'], framed: true }],
      [{ ancestors: [], referrer: 'https://www.hillside.test/', framed: false }],
      [{ ancestors: ['null'], framed: true }],
      [{ ancestors: ['http://portal.test'], framed: true }],
      [undefined],
      [inside, { 'Sec-Fetch-Site': 'cross-site' }],
    ];
    for (const [host, headers] of refusals) {
      const res = await detail(token, host, headers);
      expect(res.status, JSON.stringify(host)).toBe(403);
      expect(res.body).toMatchObject({
        success: false,
        code: 'EMBED_HOST_NOT_ALLOWED',
        message: MSG.embedHostNotAllowed,
      });
      expect(res.body.viewer).toBeUndefined();
    }

    // The viewer's own load: without a token the detail minted, or framed elsewhere, it counts nothing.
    const frame = ok.body.url as string;
    for (const over of [
      { viewer: null },
      { viewer: 'vw1.forged-token-value.xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx' },
      { ancestors: 'http://portal.test https://blog.example' },
      { ancestors: 'https://blog.example' },
      { ancestors: 'http://portal.test' },
      { ancestors: '' },
    ]) {
      const res = await viewerLoad(frame, over);
      expect(res.status, JSON.stringify(over)).toBe(403);
      expect(res.body.code).toBe('EMBED_HOST_NOT_ALLOWED');
    }
    await h.flush();
    expect((await linkView(id)).views).toBe(1);
  });

  it('reads the referrer where the browser has no ancestor origins (Firefox), and only inside a frame', async () => {
    const { token, id } = await makeLink(['hillside.test']);
    const framed = await detail(token, { referrer: 'https://hillside.test/lesson?week=3', framed: true });
    expect(framed.status, JSON.stringify(framed.body)).toBe(200);
    expect((await viewerLoad(framed.body.url as string)).status).toBe(200);
    expect((await linkView(id)).views).toBe(1);
    for (const host of [
      { referrer: 'https://hillside.test/lesson', framed: false },
      { referrer: 'https://www.hillside.test/', framed: true },
      { referrer: 'http://portal.test/user/home', framed: true },
      { referrer: '', framed: true },
      { framed: true },
    ]) {
      expect((await detail(token, host)).status, JSON.stringify(host)).toBe(403);
    }
    expect((await linkView(id)).views).toBe(1);
  });

  it('leaves a link without a list as it was: any page, with or without what the page tells', async () => {
    const { token, id } = await makeLink();
    const plain = await detail(token);
    expect(plain.status).toBe(200);
    const elsewhere = await detail(token, { ancestors: ['https://blog.example'], framed: true });
    expect(elsewhere.status).toBe(200);
    expect((await viewerLoad(plain.body.url as string, { ancestors: 'https://blog.example' })).status).toBe(
      200,
    );
    expect((await linkView(id)).views).toBe(1);
    // What the page tells is checked for shape.
    expect((await detail(token, { ancestors: 'https://x.org' })).status).toBe(400);
    expect((await detail(token, { ancestors: ['x'.repeat(301)] })).status).toBe(400);
    expect((await detail(token, { unknown: true })).status).toBe(400);
  });
});

/** The viewer frame's address in a page the server drew (its `src`, unescaped). */
function frameOf(html: string): string | null {
  const src = /<iframe[^>]* src="([^"]+)"/.exec(html)?.[1];
  return src ? src.replaceAll('&amp;', '&') : null;
}

describe('the share and embed pages drawn by the server (one API call per page load)', () => {
  it("carries the school's header and a frame with a fresh viewer token; the viewer's one call counts it and keeps the viewer on reload", async () => {
    const { token, id } = await makeLink();
    const first = await request(pages).get(`/share/${token}`);
    expect(first.status).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.text).toContain('data-link="ready"');
    expect(first.text).toContain('data-testid="share-brand"');
    expect(first.text).toContain('<h1 class="share-title">Hosts heart</h1>');
    const frame = frameOf(first.text)!;
    const pageToken = new URL(frame).searchParams.get('viewer');
    expect(pageToken).toMatch(/^vw1\./);
    // The props the browser hydrates the page with carry the same frame (the token spliced into both).
    const props = /<script type="application\/json" id="link-page-data">(.*?)<\/script>/.exec(
      first.text,
    )![1]!;
    expect((JSON.parse(props) as { frameUrl: string }).frameUrl).toBe(frame);
    // Rendered once for the link: the next load is the same page but for its own token.
    const next = await request(pages).get(`/share/${token}`);
    const nextToken = new URL(frameOf(next.text)!).searchParams.get('viewer')!;
    expect(nextToken).not.toBe(pageToken);
    expect(next.text.replaceAll(nextToken, 'T')).toBe(first.text.replaceAll(pageToken!, 'T'));

    const counted = await viewerLoad(frame);
    expect(counted.status, JSON.stringify(counted.body)).toBe(200);
    expect(counted.body.viewer).toBe(pageToken);
    expect((await linkView(id)).views).toBe(1);

    // A reload: a new page token, and the viewer's kept one, which keeps the viewer (nothing counted).
    const reload = frameOf((await request(pages).get(`/embed/${token}`)).text)!;
    expect(new URL(reload).searchParams.get('viewer')).not.toBe(pageToken);
    const { glb, ...frameQuery } = Object.fromEntries(new URL(reload).searchParams.entries());
    expect(glb).toMatch(/\/api\/files\/models\/\d+\?v=\d+&exp=\d+&sig=/);
    const query = { ...frameQuery, kept: pageToken! };
    const again = await request(h.app).get('/api/viewer/model').query(query).set('Origin', VIEWER);
    expect(again.status).toBe(200);
    expect(peekViewerToken(again.body.viewer as string)).toBe(peekViewerToken(pageToken!));
    // A kept token that is not ours: the page's own token counts (a new viewer).
    const forged = { ...query, kept: `vw1.${'x'.repeat(40)}.${'y'.repeat(43)}` };
    const other = await request(h.app).get('/api/viewer/model').query(forged).set('Origin', VIEWER);
    expect(other.body.viewer).toBe(new URL(reload).searchParams.get('viewer'));
    await h.flush();
    expect((await linkView(id)).views).toBe(2);
  });

  it('gives a limited link a token only inside its sites, the panel elsewhere, and lets the ancestors decide when it cannot tell', async () => {
    const { token, id } = await makeLink(['*.hillside.test']);
    const framed = { 'Sec-Fetch-Dest': 'iframe' };
    const inside = await request(pages)
      .get(`/embed/${token}`)
      .set({ ...framed, Referer: 'https://www.hillside.test/' });
    const frame = frameOf(inside.text)!;
    expect(new URL(frame).searchParams.get('viewer')).toMatch(/^vw1\./);
    expect((await viewerLoad(frame)).status).toBe(200);

    for (const headers of [
      { ...framed, Referer: 'https://blog.example/' },
      { 'Sec-Fetch-Dest': 'document', Referer: 'https://www.hillside.test/' },
    ]) {
      const page = await request(pages).get(`/share/${token}`).set(headers);
      expect(page.status).toBe(200);
      expect(page.text).toContain('data-link="not-allowed"');
      expect(page.text).toContain('data-testid="link-not-allowed"');
      expect(frameOf(page.text), JSON.stringify(headers)).toBeNull();
    }

    // No referrer: a frame without a token; the viewer's ancestor origins decide.
    const unplaced = frameOf((await request(pages).get(`/embed/${token}`).set(framed)).text)!;
    expect(new URL(unplaced).searchParams.get('viewer')).toBeNull();
    expect((await viewerLoad(unplaced)).status).toBe(403);
    expect(
      (await viewerLoad(unplaced, { ancestors: 'http://portal.test https://blog.example' })).status,
    ).toBe(403);
    const allowed = await viewerLoad(unplaced, { ancestors: 'http://portal.test https://www.hillside.test' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.viewer).toMatch(/^vw1\./);
    await h.flush();
    expect((await linkView(id)).views).toBe(2);
  });

  it('answers 404 with the unavailable page for a link that is not one', async () => {
    const page = await request(pages).get(`/share/${'A'.repeat(43)}`);
    expect(page.status).toBe(404);
    expect(page.text).toContain('data-link="unavailable"');
    expect(frameOf(page.text)).toBeNull();
  });
});
