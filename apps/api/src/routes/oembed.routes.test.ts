import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { OEmbedResponse } from '@helix/shared/schemas/oembed';
import { sha256 } from '@helix/server/tokens';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';
import { writeLinkPageBundle } from '../../test/link-page-bundle.ts';

let h: ModelHarness;
let dir: string;
let owner: Caller;
let modelId: number;
let token: string;

const PORTAL = 'http://portal.test';
const THUMBNAIL = 'images/thumbnail-oembed-test.webp';
const EMBED_SHELL =
  '<!doctype html><html><head><title>Helix</title></head><body><div id="root"></div></body></html>';

async function makeLink(caller: Caller, id: number, extra: object = {}) {
  const res = await request(h.app)
    .post(`${caller.base}/model/embed`)
    .set(bearer(caller.token))
    .send({ id, settings: ['info'], ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.token as string;
}

const oembed = (query: Record<string, string | string[]>, app = h.app) =>
  request(app).get('/api/oembed').query(query);

beforeAll(async () => {
  h = await createModelHarness();
  owner = await customer(h, { name: 'Hillside School' });
  const model = await createModel(h, { name: 'Animal cell' });
  await h.db.model.update({ where: { id: model.id }, data: { thumbnail: THUMBNAIL } });
  modelId = model.id;
  token = await makeLink(owner, modelId, { kind: 'share' });
  dir = await mkdtemp(path.join(os.tmpdir(), 'helix-oembed-'));
  await mkdir(path.join(dir, 'web'), { recursive: true });
  await writeFile(path.join(dir, 'web', 'embed.html'), EMBED_SHELL);
  await writeFile(path.join(dir, 'web', 'index.html'), EMBED_SHELL);
  await writeLinkPageBundle(path.join(dir, 'web'));
});
afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('GET /api/oembed', () => {
  it('answers a share link as an oEmbed 1.0 rich embed: the embed iframe, title, school, thumbnail, cache age', async () => {
    const res = await oembed({ url: `${PORTAL}/share/${token}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    const answer = OEmbedResponse.parse(res.body);
    expect(answer).toEqual({
      type: 'rich',
      version: '1.0',
      title: 'Animal cell',
      author_name: 'Hillside School',
      provider_name: 'Helix',
      provider_url: `${PORTAL}/`,
      cache_age: 3600,
      thumbnail_url: `${PORTAL}/api/files/images/thumbnail-oembed-test.webp`,
      thumbnail_width: 480,
      thumbnail_height: 360,
      width: 640,
      height: 480,
      html:
        `<iframe src="${PORTAL}/embed/${token}" title="Animal cell viewer" width="640" height="480" ` +
        'style="border:0" allow="fullscreen; xr-spatial-tracking" ' +
        'referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>',
    });
    // No view is counted by an oEmbed answer.
    const links = await request(h.app).get(`${owner.base}/model/links`).set(bearer(owner.token));
    expect(links.body.links.find((l: { token: string }) => l.token === token).views).toBe(0);
  });

  it('takes the embed address too, with a trailing slash, any case of the page, a query and a fragment', async () => {
    const first = await oembed({ url: `${PORTAL}/share/${token}` });
    for (const url of [
      `${PORTAL}/embed/${token}`,
      `${PORTAL}/share/${token}/`,
      `${PORTAL}/SHARE/${token}`,
      `${PORTAL}/share/${token}?utm_source=chat#top`,
      `HTTP://PORTAL.TEST/embed/${token}`,
    ]) {
      const res = await oembed({ url });
      expect(res.status, url).toBe(200);
      expect(res.body.html).toBe(first.body.html);
    }
  });

  it('sizes the frame within maxwidth and maxheight, keeping 4:3, and gives the thumbnail only when it fits', async () => {
    const size = async (query: Record<string, string>) => {
      const res = await oembed({ url: `${PORTAL}/share/${token}`, ...query });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const answer = OEmbedResponse.parse(res.body);
      expect(answer.html).toContain(`width="${answer.width}" height="${answer.height}"`);
      return {
        width: answer.width,
        height: answer.height,
        thumbnail: answer.thumbnail_url ? [answer.thumbnail_width, answer.thumbnail_height] : null,
      };
    };
    expect(await size({ maxwidth: '320' })).toEqual({ width: 320, height: 240, thumbnail: null });
    expect(await size({ maxheight: '120' })).toEqual({ width: 160, height: 120, thumbnail: null });
    expect(await size({ maxwidth: '500', maxheight: '400' })).toEqual({
      width: 500,
      height: 375,
      thumbnail: [480, 360],
    });
    expect(await size({ maxwidth: '600', maxheight: '300' })).toEqual({
      width: 400,
      height: 300,
      thumbnail: null,
    });
    // Never larger than the default frame, and never below one pixel.
    expect(await size({ maxwidth: '4000', maxheight: '3000' })).toEqual({
      width: 640,
      height: 480,
      thumbnail: [480, 360],
    });
    expect(await size({ maxwidth: '1' })).toEqual({ width: 1, height: 1, thumbnail: null });
  });

  it('serves format=json (any case) and answers 501 for any other format', async () => {
    expect((await oembed({ url: `${PORTAL}/share/${token}`, format: 'json' })).status).toBe(200);
    expect((await oembed({ url: `${PORTAL}/share/${token}`, format: 'JSON' })).status).toBe(200);
    // An empty format is no format (json).
    expect((await oembed({ url: `${PORTAL}/share/${token}`, format: '' })).status).toBe(200);
    for (const format of ['xml', 'yaml']) {
      const res = await oembed({ url: `${PORTAL}/share/${token}`, format });
      expect(res.status, format).toBe(501);
      expect(res.body).toMatchObject({
        statusCode: 501,
        error: 'Not Implemented',
        code: 'FORMAT_NOT_IMPLEMENTED',
        message: MSG.oembedFormatNotImplemented,
      });
      expect(res.headers['cache-control']).toBe('no-store');
    }
    // 501 before looking at the url: the format alone decides.
    expect((await oembed({ url: `${PORTAL}/models`, format: 'xml' })).status).toBe(501);
  });

  it('answers 400 for a missing or malformed url and for sizes that are not whole pixels', async () => {
    const bad = async (query: Record<string, string | string[]>, field: string, message: string) => {
      const res = await oembed(query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body.code).toBe('VALIDATION_FAILED');
      expect(res.body.errors[field]).toBe(message);
      expect(res.headers['cache-control']).toBe('no-store');
    };
    await bad({}, 'url', MSG.oembedUrlRequired);
    await bad({ url: '' }, 'url', MSG.oembedUrlRequired);
    await bad({ url: 'not an address' }, 'url', MSG.oembedUrlInvalid);
    await bad({ url: `portal.test/share/${token}` }, 'url', MSG.oembedUrlInvalid);
    await bad({ url: `ftp://portal.test/share/${token}` }, 'url', MSG.oembedUrlInvalid);
    await bad({ url: `${PORTAL}/share/${'x'.repeat(2000)}` }, 'url', MSG.oembedUrlInvalid);
    await bad(
      { url: [`${PORTAL}/share/${token}`, `${PORTAL}/embed/${token}`] },
      'url',
      MSG.oembedUrlRequired,
    );
    const url = `${PORTAL}/share/${token}`;
    for (const value of ['abc', '0', '-5', '1.5', '12px', '9999999']) {
      await bad({ url, maxwidth: value }, 'maxwidth', MSG.oembedSizeInvalid('maxwidth'));
      await bad({ url, maxheight: value }, 'maxheight', MSG.oembedSizeInvalid('maxheight'));
    }
    // Parameters the spec does not define are ignored (consumers add their own).
    expect((await oembed({ url, dnt: '1', callback: 'x' })).status).toBe(200);
  });

  it('answers 404 for addresses that are not our links, and for revoked, expired and private links', async () => {
    const notFound = async (url: string) => {
      const res = await oembed({ url });
      expect(res.status, url).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
      expect(res.headers['cache-control']).toBe('no-store');
    };
    await notFound(`http://elsewhere.test/share/${token}`);
    await notFound(`http://portal.test:8080/share/${token}`);
    await notFound(`${PORTAL}/share/${token}/more`);
    await notFound(`${PORTAL}/models/${modelId}`);
    await notFound(`${PORTAL}/`);
    await notFound(`${PORTAL}/share/not-a-token`);
    await notFound(`${PORTAL}/share/${'A'.repeat(43)}`);

    const revoked = await makeLink(owner, modelId);
    const link = await h.db.embedToken.findUniqueOrThrow({ where: { tokenHash: sha256(revoked) } });
    await request(h.app)
      .post(`${owner.base}/model/links/revoke`)
      .set(bearer(owner.token))
      .send({ id: link.id })
      .expect(200);
    await notFound(`${PORTAL}/share/${revoked}`);

    const expired = await makeLink(owner, modelId);
    await h.db.embedToken.update({
      where: { tokenHash: sha256(expired) },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await notFound(`${PORTAL}/share/${expired}`);

    // Private: a model no longer visible to the school, a deleted model, a school without a plan.
    const restricted = await createModel(h, { isPublic: false, restrictedTenants: [owner.tenant.id] });
    const hidden = await makeLink(owner, restricted.id);
    expect((await oembed({ url: `${PORTAL}/share/${hidden}` })).status).toBe(200);
    await h.db.modelTenantAccess.deleteMany({ where: { modelId: restricted.id } });
    await notFound(`${PORTAL}/share/${hidden}`);

    const gone = await createModel(h);
    const deleted = await makeLink(owner, gone.id);
    await h.db.model.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    await notFound(`${PORTAL}/share/${deleted}`);

    const lapsed = await customer(h);
    const unpaid = await makeLink(lapsed, modelId);
    await h.db.tenantSubscription.update({
      where: { tenantId: lapsed.tenant.id },
      data: { status: 'deactivated' },
    });
    await notFound(`${PORTAL}/share/${unpaid}`);
  });

  it("keeps cache_age within a link's expiry", async () => {
    const soon = await makeLink(owner, modelId, {
      expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    });
    const res = await oembed({ url: `${PORTAL}/share/${soon}` });
    expect(res.status).toBe(200);
    expect(res.body.cache_age).toBeGreaterThan(590);
    expect(res.body.cache_age).toBeLessThanOrEqual(600);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
  });

  it("takes a school's own domain for its links (the frame stays on it), not another school's", async () => {
    await h.db.tenant.update({
      where: { id: owner.tenant.id },
      data: { customDomainName: 'models.hillside.test' },
    });
    const res = await oembed({ url: `http://models.hillside.test/share/${token}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.html).toContain(`src="http://models.hillside.test/embed/${token}"`);
    const other = await customer(h);
    await h.db.tenant.update({ where: { id: other.tenant.id }, data: { customDomainName: 'other.test' } });
    expect((await oembed({ url: `http://other.test/share/${token}` })).status).toBe(404);
    await h.db.tenant.update({ where: { id: owner.tenant.id }, data: { customDomainName: null } });
  });

  it('answers a browser preflight from any origin', async () => {
    const res = await request(h.app)
      .options('/api/oembed')
      .set('Origin', 'https://blog.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['access-control-allow-methods']).toContain('GET');
  });

  it("puts the discovery link in the share and embed pages' head, drawn by the server, and it resolves", async () => {
    const app = h.appWith({ WEB_DIST_DIR: path.join(dir, 'web') });
    for (const kind of ['share', 'embed']) {
      const page = await request(app).get(`/${kind}/${token}`).set('Accept-Encoding', 'gzip');
      expect(page.status).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-encoding']).toBe('gzip');
      expect(page.headers['cache-control']).toBe('no-store');
      const pageUrl = encodeURIComponent(`${PORTAL}/${kind}/${token}`);
      const href = `${PORTAL}/api/oembed?url=${pageUrl}&amp;format=json`;
      expect(page.text).toContain(
        `<link rel="alternate" type="application/json+oembed" href="${href}" title="oEmbed"></head>`,
      );
      // A consumer follows it as it is.
      const discovered = new URL(href.replace('&amp;', '&'));
      const res = await request(app).get(`${discovered.pathname}${discovered.search}`);
      expect(res.status).toBe(200);
      expect(res.body.html).toContain(`/embed/${token}"`);
    }
    // On the school's own domain the page names its address there.
    await h.db.tenant.update({
      where: { id: owner.tenant.id },
      data: { customDomainName: 'models.hillside.test' },
    });
    const white = await request(app).get(`/share/${token}`).set('Host', 'models.hillside.test');
    expect(white.text).toContain(
      `url=${encodeURIComponent(`http://models.hillside.test/share/${token}`)}&amp;format=json`,
    );
    await h.db.tenant.update({ where: { id: owner.tenant.id }, data: { customDomainName: null } });
    // A path that cannot be a link of ours: the unavailable page, naming no oEmbed answer.
    const other = await request(app).get('/share/not-a-token');
    expect(other.status).toBe(404);
    expect(other.text).toContain('data-testid="link-unavailable"');
    expect(other.text).not.toContain('json+oembed');
  });

  it('is rate-limited per client address like the other public calls', async () => {
    const app = h.appWith({ EMBED_RATE_LIMIT_MAX: '2' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1)
      statuses.push((await oembed({ url: `${PORTAL}/share/${token}` }, app)).status);
    expect(statuses.at(-1)).toBe(429);
  });
});
