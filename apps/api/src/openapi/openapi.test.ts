import { readFileSync } from 'node:fs';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { createHarness, type Harness } from '../../test/harness.ts';
import { checkAnswer, checkedAnswers, contractViolations } from '../../test/contract.ts';
import { mountedRoutes } from '../../test/mounted-routes.ts';
import { bearer, customer, type Caller } from '../../test/models.ts';
import { openApiDocument } from './document.ts';

let h: Harness;
let owner: Caller;

beforeAll(async () => {
  h = await createHarness();
  owner = await customer(h);
});
afterAll(async () => {
  await h?.close();
});

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate(structuredClone(openApiDocument()) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 2000)).toEqual([]);
    expect(result.valid).toBe(true);
    expect(openApiDocument().openapi).toBe('3.1.0');
  });

  it('describes every route mounted under /api, and nothing that is not mounted', () => {
    // The document's operations, as `METHOD /express/:path`.
    const described = new Set(
      Object.entries(openApiDocument().paths ?? {}).flatMap(([path, operations]) =>
        Object.keys(operations ?? {})
          .filter((key) => ['get', 'post', 'put', 'patch', 'delete', 'options'].includes(key))
          .map((method) => `${method.toUpperCase()} ${path.replace(/\{([A-Za-z_]+)\}/g, ':$1')}`),
      ),
    );
    // The unwrapped Express app behind the harness's checking proxy has the same router.
    const mounted = [...mountedRoutes(h.app)].filter((r) => / \/api(\/|$)/.test(r));
    expect(mounted.length).toBeGreaterThan(80);
    const undocumented = mounted.filter((r) => !described.has(r));
    expect(undocumented, 'declare each with defineRoute (apps/api/src/routes/define-route.ts)').toEqual([]);
    const stale = [...described].filter((r) => !mounted.includes(r));
    expect(stale, 'described but not mounted').toEqual([]);
  });

  it('keeps every path and operation it had when each route was declared twice (operations.json)', () => {
    // operations.json: the document's operations as built from routes.doc.ts, before defineRoute. A route
    // added or removed on purpose updates that list in the same change.
    const operations = Object.entries(openApiDocument().paths ?? {}).flatMap(([path, methods]) =>
      Object.keys(methods ?? {})
        .filter((key) => ['get', 'post', 'put', 'patch', 'delete', 'options', 'head'].includes(key))
        .map((method) => `${method.toUpperCase()} ${path}`),
    );
    const before: unknown = JSON.parse(readFileSync(new URL('./operations.json', import.meta.url), 'utf8'));
    expect(operations.sort()).toEqual(before);
  });

  it('names the auth, the permission and the error shape of each operation', () => {
    const doc = openApiDocument();
    const modelAll = doc.paths!['/api/t/{tenant}/model/all']!.get!;
    expect(modelAll.security).toEqual([{ session: [] }]);
    expect(modelAll['x-permission']).toEqual(['Model.listing.view']);
    expect(Object.keys(modelAll.responses!)).toEqual(['200', '400', '401', '403', '404', '500', '503']);
    expect(JSON.stringify(modelAll.responses!['401'])).toContain('#/components/schemas/ApiError');
    const webhook = doc.paths!['/api/stripe/webhook']!.post!;
    expect(webhook.security).toEqual([{ stripeSignature: [] }]);
    expect(doc.paths!['/api/user/login']!.post!.security).toEqual([]);
    expect(doc.components!.securitySchemes!.session).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('the served reference', () => {
  it('serves openapi.json and the interactive page from this server, under the content security policy', async () => {
    const json = await request(h.app).get('/api/openapi.json').expect(200);
    expect(json.type).toBe('application/json');
    expect(json.body.paths['/api/t/{tenant}/model/all']).toBeDefined();

    const page = await request(h.app).get('/api/docs').expect(200);
    expect(page.type).toBe('text/html');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toMatch(/script-src 'self'/);
    // Every script and stylesheet of the page is this server's own: nothing from a CDN, nothing inline.
    const sources = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(sources.length).toBeGreaterThanOrEqual(4);
    for (const source of sources) expect(source.startsWith('/api/')).toBe(true);
    expect(page.text).not.toMatch(/<script>(?!<\/script>)/);

    const bundle = await request(h.app).get('/api/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(bundle.type).toMatch(/javascript/);
    await request(h.app)
      .get('/api/docs/assets/swagger-ui.css')
      .expect(200)
      .expect('content-type', /text\/css/);
    const init = await request(h.app).get('/api/docs/assets/init.js').expect(200);
    expect(init.text).toContain("url: '/api/openapi.json'");
    // Only the files the page loads: not swagger-ui-dist's demo page.
    await request(h.app).get('/api/docs/assets/index.html').expect(404);
    await request(h.app).get('/api/docs/assets/swagger-initializer.js').expect(404);
  });
});

describe('the contract check of the API tests', () => {
  const answer = (over: Partial<Parameters<typeof checkAnswer>[0]> & { json?: unknown }) => {
    const body = Buffer.from(over.json === undefined ? '' : JSON.stringify(over.json));
    return checkAnswer({
      method: 'GET',
      url: '/api/health',
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body,
      bodyLength: body.length,
      ...over,
    });
  };

  it('passes an answer as described, and names each kind of drift', () => {
    expect(answer({ json: { status: 'ok' } })).toEqual([]);
    expect(answer({ json: { status: 'fine' } }).join()).toMatch(/does not match the reference/);
    expect(answer({ json: { status: 'ok', uptime: 3 } }).join()).toMatch(/additional properties 'uptime'/);
    expect(answer({ status: 418, json: { status: 'ok' } }).join()).toMatch(
      /a status the reference does not list/,
    );
    expect(answer({ contentType: 'text/plain', json: { status: 'ok' } }).join()).toMatch(/as text\/plain/);
    expect(answer({ method: 'POST', url: '/api/user/login', status: 200, json: {} }).join()).toMatch(
      /must have required property 'apiToken'/,
    );
    // The one error shape, also for paths the reference does not have.
    const notFound = { statusCode: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'x' };
    expect(answer({ url: '/api/nothing-here', status: 404, json: notFound })).toEqual([]);
    expect(answer({ url: '/api/nothing-here', status: 404, json: { message: 'x' } }).join()).toMatch(
      /required property 'statusCode'/,
    );
    expect(answer({ url: '/api/nothing-here', status: 200, json: {} }).join()).toMatch(/no GET operation/);
    // Outside /api: not the reference's business.
    expect(answer({ url: '/user/home', status: 200, contentType: 'text/html' })).toEqual([]);
  });

  it('checks every answer of the harness app, and a drift fails the test that caused it', async () => {
    const before = checkedAnswers();
    await request(h.app).get(`${owner.base}/user/info`).set(bearer(owner.token)).expect(200);
    await request(h.app).get('/api/t/nobody/user/info').expect(401);
    expect(checkedAnswers()).toBe(before + 2);
    expect(contractViolations()).toEqual([]);
  });
});
