import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { embedViewerToken } from '@helix/server/views/embed-viewer';
import { peekViewerToken } from '@helix/server/views/viewer-token';
import { sha256 } from '@helix/server/tokens';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

/**
 * Who a viewer of a share or embed link is (issue 17): the server mints and signs the viewer token; a
 * load without a valid one counts at most once per address, link and window; every address has a
 * ceiling per link and hour (VIEWS_PER_ADDRESS_PER_HOUR, 60 by default) fair to a classroom, and per
 * school and hour across all the school's links (VIEWS_PER_TENANT_ADDRESS_PER_HOUR, 120 by default).
 */
let h: ModelHarness;
/** Trusts X-Forwarded-For, so each test can load from addresses of its own. */
let app: Express;

beforeAll(async () => {
  h = await createModelHarness();
  app = h.appWith({ TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await h?.close();
});

const VIEWER = 'http://viewer.test';
const CEILING = 60;
/** VIEWS_PER_TENANT_ADDRESS_PER_HOUR's default: one address across all of a school's links. */
const SCHOOL_CEILING = 120;

async function link(caller?: Caller) {
  const a = caller ?? (await customer(h));
  const model = await createModel(h);
  const res = await request(h.app)
    .post(`${a.base}/model/embed`)
    .set(bearer(a.token))
    .send({ id: model.id, settings: ['info'] });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const token = res.body.token as string;
  const row = await h.db.embedToken.findUniqueOrThrow({ where: { tokenHash: sha256(token) } });
  return { a, model, token, linkId: row.id };
}

/** The embed detail from `ip` (a page load), with the token the page kept, if any. */
async function detail(ip: string, token: string, viewer?: string) {
  const res = await request(app)
    .post('/api/model/embed/detail')
    .set('X-Forwarded-For', ip)
    .send({ token, ...(viewer ? { viewer } : {}) });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { url: res.body.url as string, viewer: res.body.viewer as string };
}

/** The viewer frame's lookup from `ip` with the frame's parameters, `viewer` replaced when given. */
async function load(ip: string, url: string, viewer?: string | null) {
  const query = Object.fromEntries(new URL(url).searchParams.entries());
  if (viewer === null) delete query.viewer;
  else if (viewer !== undefined) query.viewer = viewer;
  const res = await request(app)
    .get('/api/viewer/model')
    .query(query)
    .set('Origin', VIEWER)
    .set('X-Forwarded-For', ip);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
}

async function recorded(modelId: number) {
  await h.flush();
  const sum = await h.db.modelViewDaily.aggregate({ where: { modelId }, _sum: { count: true } });
  return sum._sum.count ?? 0;
}

describe('viewer tokens minted by the server', () => {
  it('the embed detail mints a signed token for the link (in the frame URL), and keeps the viewer on reload', async () => {
    const { token } = await link();
    const first = await detail('192.0.2.10', token);
    expect(first.viewer).toMatch(/^vw1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(new URL(first.url).searchParams.get('viewer')).toBe(first.viewer);
    // Reloads with the kept token: the same viewer. Without it, or from another address: a new one.
    const again = await detail('192.0.2.10', token, first.viewer);
    expect(peekViewerToken(again.viewer)).toBe(peekViewerToken(first.viewer));
    expect(peekViewerToken((await detail('192.0.2.10', token)).viewer)).not.toBe(
      peekViewerToken(first.viewer),
    );
    const moved = await detail('192.0.2.11', token, first.viewer);
    expect(peekViewerToken(moved.viewer)).not.toBe(peekViewerToken(first.viewer));
  });

  it('random viewer ids from one client count once; cycling minted tokens counts at most the ceiling', async () => {
    const { model, token } = await link();
    const ip = '198.51.100.20';
    const { url } = await detail(ip, token);
    // 100 loads, each with a `viewer` of the client's own choosing: one viewer (the address).
    for (let i = 0; i < 100; i += 1) await load(ip, url, randomBytes(16).toString('base64url'));
    expect(await recorded(model.id)).toBe(1);
    // 100 page loads, each asking for a fresh token: served, and counted up to the ceiling (the
    // address's load above is one of them).
    for (let i = 0; i < 100; i += 1) {
      const page = await detail(ip, token);
      await load(ip, page.url);
    }
    expect(await recorded(model.id)).toBe(CEILING);
    // The ceiling is per address and per link: another address, and another link, still count.
    await load('198.51.100.21', (await detail('198.51.100.21', token)).url);
    const other = await link();
    await load(ip, (await detail(ip, other.token)).url);
    expect(await recorded(model.id)).toBe(CEILING + 1);
    expect(await recorded(other.model.id)).toBe(1);
  });

  it('many links of one school from one address count at most the school ceiling (120 an hour)', async () => {
    const a = await customer(h);
    const links = [await link(a), await link(a), await link(a)];
    const ip = '198.51.100.40';
    // 50 fresh viewers on each of three links: under each link's ceiling (60), 150 in all.
    for (const l of links) {
      for (let i = 0; i < 50; i += 1) await load(ip, (await detail(ip, l.token)).url);
    }
    const counts: number[] = [];
    for (const l of links) counts.push(await recorded(l.model.id));
    expect(
      counts.reduce((x, y) => x + y, 0),
      JSON.stringify(counts),
    ).toBe(SCHOOL_CEILING);
    // Per school and address: another address of this school, and another school from this address, count.
    await load('198.51.100.41', (await detail('198.51.100.41', links[0]!.token)).url);
    const other = await link();
    await load(ip, (await detail(ip, other.token)).url);
    expect(await recorded(links[0]!.model.id)).toBe(counts[0]! + 1);
    expect(await recorded(other.model.id)).toBe(1);
  });

  it('30 pupils behind one school address, each with a signed token, count 30 (reloads included)', async () => {
    const { model, token } = await link();
    const school = '203.0.113.30';
    const pupils = await Promise.all(Array.from({ length: 30 }, () => detail(school, token)));
    expect(new Set(pupils.map((p) => peekViewerToken(p.viewer))).size).toBe(30);
    for (const pupil of pupils) await load(school, pupil.url);
    // Each pupil reloads the page twice within the window (the page sends its kept token back).
    for (const pupil of pupils) {
      for (let i = 0; i < 2; i += 1) await load(school, (await detail(school, token, pupil.viewer)).url);
    }
    expect(await recorded(model.id)).toBe(30);
  });

  it('a forged, expired, other-link or other-address token is not honoured (counted as the address)', async () => {
    const { model, token, linkId } = await link();
    const other = await link();
    const ip = '203.0.113.40';
    const { url, viewer } = await detail(ip, token);
    // The address's tokenless load: one view.
    await load(ip, url, null);
    expect(await recorded(model.id)).toBe(1);

    const [head, payload, signature] = viewer.split('.') as [string, string, string];
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { n: string };
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...body, n: randomBytes(16).toString('base64url') }),
    ).toString('base64url');
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const realNow = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(realNow - 3 * 3600_000);
    const expired = embedViewerToken(h.config, linkId, ip);
    vi.restoreAllMocks();
    const notHonoured = {
      forgedViewer: `${head}.${forgedPayload}.${signature}`,
      badSignature: `${head}.${payload}.${flipped}`,
      otherSecret: embedViewerToken({ ...h.config, SIGNING_SECRET: 'x'.repeat(64) }, linkId, ip),
      expired,
      otherLink: (await detail(ip, other.token)).viewer,
      otherAddress: (await detail('203.0.113.41', token)).viewer,
    };
    for (const [what, forged] of Object.entries(notHonoured)) {
      await load(ip, url, forged);
      expect(await recorded(model.id), what).toBe(1);
    }
    // The control: the address's own valid token for the link is a viewer of its own.
    await load(ip, url, viewer);
    expect(await recorded(model.id)).toBe(2);
    // The detail call does not keep the viewer of a token that is not ours for this link and address;
    // an expired one of ours is renewed for the same viewer (the page's last visit, a window ago).
    const { expired: ours, ...foreign } = notHonoured;
    for (const [what, forged] of Object.entries(foreign)) {
      const renewed = await detail(ip, token, forged);
      expect(peekViewerToken(renewed.viewer), what).not.toBe(peekViewerToken(forged));
    }
    expect(peekViewerToken((await detail(ip, token, ours)).viewer)).toBe(peekViewerToken(ours));
  });

  it('a malformed kept token is a 400, never a 500', async () => {
    const { token } = await link();
    for (const viewer of ['short', 'has space in it!!', 'x'.repeat(401)]) {
      const res = await request(app).post('/api/model/embed/detail').send({ token, viewer });
      expect(res.status, viewer).toBe(400);
    }
  });
});
