import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { BrandingView } from '@helix/shared/schemas/tenant';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan, uniqueName } from '@helix/server/testing/factories';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  member,
  platformAdmin,
  png,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

let h: ModelHarness;
let admin: Caller;
let owner: Caller;
let user: Caller;
let otherOwner: Caller;
let noBrandingOwner: Caller;

beforeAll(async () => {
  h = await createModelHarness();
  admin = await platformAdmin(h);
  const branded = () =>
    createPlan(h.db, {
      customBranding: true,
      modelEmbed: true,
      viewLimit: 1000,
      permissions: CUSTOMER_PLAN_PERMISSIONS,
    });
  owner = await customer(h, { plan: await branded() });
  user = await member(h, owner.tenant, ['User']);
  otherOwner = await customer(h, { plan: await branded() });
  noBrandingOwner = await customer(h);
});
afterAll(async () => {
  await h?.close();
});

const slug = () => uniqueName('brand');

/** POST /tenant/update as multipart/form-data (what the branding page sends). */
function update(
  caller: Caller | null,
  fields: Record<string, string>,
  files: Partial<Record<'brandLogo' | 'modelLoadingLogo' | 'modelBgLogo', Buffer>> = {},
  base = caller?.base,
) {
  let req = request(h.app).post(`${base}/tenant/update`);
  if (caller) req = req.set(bearer(caller.token));
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  for (const [name, bytes] of Object.entries(files)) req = req.attach(name, bytes, `${name}.png`);
  return req;
}

describe('POST /tenant/update under every role', () => {
  it('lets the owner of a tenant whose plan has Custom Branding change it', async () => {
    const name = slug();
    const res = await update(owner, {
      customBrandName: name,
      primaryColor: '#AA0011',
      textColor: '#000000',
      backgroundColor: '#f0f0f0',
    });
    expect(res.status).toBe(200);
    expect(BrandingView.parse(res.body)).toMatchObject({
      tenant: owner.tenant.domainPrefix,
      customBrandName: name,
      customDomainName: null,
      primaryColor: '#aa0011',
      textColor: '#000000',
      backgroundColor: '#f0f0f0',
    });
  });

  it('refuses a platform admin, a plain user and a plan without Custom Branding (403)', async () => {
    for (const caller of [admin, user, noBrandingOwner]) {
      const res = await update(caller, { customBrandName: slug() });
      expect(res.status).toBe(403);
    }
  });

  it("answers another tenant's owner 404 and no session 401", async () => {
    const other = await update(otherOwner, { customBrandName: slug() }, {}, owner.base);
    expect(other.status).toBe(404);
    const none = await update(null, { customBrandName: slug() }, {}, owner.base);
    expect(none.status).toBe(401);
    const stored = await h.db.tenant.findUniqueOrThrow({ where: { id: owner.tenant.id } });
    expect(stored.customBrandName).not.toBe(null);
  });
});

describe('GET /tenant/get under every role', () => {
  it('answers each member their own tenant, others 404, no session 401', async () => {
    for (const caller of [admin, owner, user, noBrandingOwner]) {
      const res = await request(h.app).get(`${caller.base}/tenant/get`).set(bearer(caller.token));
      expect(res.status).toBe(200);
      expect(BrandingView.parse(res.body).tenant).toBe(caller.tenant.domainPrefix);
    }
    const fresh = await request(h.app)
      .get(`${noBrandingOwner.base}/tenant/get`)
      .set(bearer(noBrandingOwner.token));
    expect(fresh.body).toMatchObject({
      primaryColor: '#5f51fb',
      textColor: '#ffffff',
      backgroundColor: '#ffffff',
    });
    const other = await request(h.app).get(`${owner.base}/tenant/get`).set(bearer(otherOwner.token));
    expect(other.status).toBe(404);
    expect((await request(h.app).get(`${owner.base}/tenant/get`)).status).toBe(401);
  });
});

describe('branding validation', () => {
  it.each([
    [{}, 'customBrandName', MSG.brandNameRequired],
    [{ customBrandName: '  ' }, 'customBrandName', MSG.brandNameRequired],
    [{ customBrandName: 'Acme Bio!' }, 'customBrandName', MSG.brandNameRule],
    [{ customBrandName: '-acme' }, 'customBrandName', MSG.brandNameRule],
    [{ customBrandName: 'login' }, 'customBrandName', MSG.brandNameReserved],
    [
      { customBrandName: 'acme', customDomainName: 'https://acme.test/x' },
      'customDomainName',
      MSG.domainRule,
    ],
    [{ customBrandName: 'acme', customDomainName: 'localhost' }, 'customDomainName', MSG.domainRule],
    [{ customBrandName: 'acme', textColor: '#ff0000' }, 'textColor', MSG.textColourRule],
    [{ customBrandName: 'acme', primaryColor: 'red' }, 'primaryColor', MSG.modelColourInvalid],
    [{ customBrandName: 'acme', brandLogo: 'not-an-image' }, 'brandLogo', MSG.imageTypeNotAllowed],
  ])('refuses %j with the message on %s', async (fields, field, message) => {
    const res = await update(owner, fields as Record<string, string>);
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({ [field]: message });
  });

  it("refuses the portal's own host as a custom domain", async () => {
    const res = await update(owner, { customBrandName: slug(), customDomainName: 'portal.test' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ customDomainName: MSG.domainIsPortal });
  });

  it('keeps brand names and domains unique across tenants (409), case-insensitively', async () => {
    const name = slug();
    const domain = `${slug()}.example.test`;
    expect((await update(otherOwner, { customBrandName: name, customDomainName: domain })).status).toBe(200);
    const sameName = await update(owner, { customBrandName: name.toUpperCase() });
    expect(sameName.status).toBe(409);
    expect(sameName.body.errors).toEqual({ customBrandName: MSG.brandNameTaken });
    const sameDomain = await update(owner, {
      customBrandName: slug(),
      customDomainName: domain.toUpperCase(),
    });
    expect(sameDomain.status).toBe(409);
    expect(sameDomain.body.errors).toEqual({ customDomainName: MSG.domainTaken });
    // The tenant's own values are not a clash with itself.
    expect((await update(otherOwner, { customBrandName: name, customDomainName: domain })).status).toBe(200);
  });
});

describe('branding images', () => {
  it('stores a checked logo, loading image and background, and a remove flag restores the default', async () => {
    const res = await update(
      owner,
      { customBrandName: slug() },
      {
        brandLogo: await png(300, 200),
        modelLoadingLogo: await png(100, 100),
        modelBgLogo: await png(1920, 1080),
      },
    );
    expect(res.status).toBe(200);
    const body = BrandingView.parse(res.body);
    for (const url of [body.brandLogo, body.modelLoadingLogo, body.modelBgLogo]) {
      expect(url).toMatch(/^\/api\/files\/images\/(logo|loading|background)-[\w-]+\.webp$/);
      const file = await request(h.app).get(url!);
      expect(file.status).toBe(200);
    }
    const row = await h.db.branding.findUniqueOrThrow({ where: { tenantId: owner.tenant.id } });
    expect(await h.storage.getBytes(row.brandLogo!)).not.toBe(null);

    const removed = await update(owner, {
      customBrandName: body.customBrandName!,
      isBrandLogoRemove: 'true',
    });
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ brandLogo: null, modelLoadingLogo: body.modelLoadingLogo });
    expect(await h.storage.getBytes(row.brandLogo!)).toBe(null);
  });

  it.each([
    ['brandLogo', 1200, 800, MSG.dimensionsOver1000],
    ['modelLoadingLogo', 800, 1001, MSG.dimensionsOver1000],
    ['modelBgLogo', 4001, 100, MSG.dimensionsOver4000],
  ] as const)('refuses a %s of %ix%i with the spec message', async (field, width, height, message) => {
    const res = await update(owner, { customBrandName: slug() }, { [field]: await png(width, height) });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ [field]: message });
  });

  it('refuses a logo over 1 MB and a background over 5 MB before the worker sees them', async () => {
    const logo = await update(
      owner,
      { customBrandName: slug() },
      { brandLogo: Buffer.alloc(1024 * 1024 + 1) },
    );
    expect(logo.status).toBe(400);
    expect(logo.body.errors).toEqual({ brandLogo: MSG.fileOver1mb });
    const bg = await update(
      owner,
      { customBrandName: slug() },
      { modelBgLogo: Buffer.alloc(5 * 1024 * 1024 + 1) },
    );
    expect(bg.status).toBe(400);
    expect(bg.body.errors).toEqual({ modelBgLogo: MSG.fileOver5mb });
  });

  it('refuses a file that is not an image whatever its name', async () => {
    const res = await update(
      owner,
      { customBrandName: slug() },
      { brandLogo: Buffer.from('GIF89a not really') },
    );
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ brandLogo: MSG.imageTypeNotAllowed });
  });
});

describe('white label', () => {
  it('answers custom-branding-detail by brand name, by domain, and by the request host', async () => {
    const name = slug();
    const domain = `${slug()}.school.test`;
    const saved = await update(owner, {
      customBrandName: name,
      customDomainName: domain,
      primaryColor: '#123456',
    });
    expect(saved.status).toBe(200);
    const lookups = [
      request(h.app).post('/api/tenant/custom-branding-detail').send({ brandName: name }),
      request(h.app).post('/api/tenant/custom-branding-detail').send({ domain }),
      request(h.app).post('/api/tenant/custom-branding-detail').set('Host', `${domain}:443`).send({}),
    ];
    for (const res of await Promise.all(lookups)) {
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        tenant: owner.tenant.domainPrefix,
        customBrandName: name,
        primaryColor: '#123456',
      });
    }
    const portal = await request(h.app)
      .post('/api/tenant/custom-branding-detail')
      .set('Host', 'portal.test')
      .send({});
    // The portal's own host has no white label: an empty answer, not an error.
    expect(portal.status).toBe(204);
    const unknown = await request(h.app)
      .post('/api/tenant/custom-branding-detail')
      .send({ domain: `${slug()}.nowhere.test` });
    expect(unknown.status).toBe(404);
  });

  it('brands the embed page and the viewer with the tenant branding', async () => {
    const saved = await update(
      owner,
      { customBrandName: slug(), primaryColor: '#0a7f3c', backgroundColor: '#101010' },
      { modelLoadingLogo: await png(120, 120) },
    );
    expect(saved.status).toBe(200);
    const model = await createModel(h);
    const embed = await request(h.app)
      .post(`${owner.base}/model/embed`)
      .set(bearer(owner.token))
      .send({ id: model.id, settings: ['info'] });
    expect(embed.status).toBe(200);
    const detail = await request(h.app).post('/api/model/embed/detail').send({ token: embed.body.token });
    expect(detail.status).toBe(200);
    expect(detail.body.branding).toMatchObject({
      primaryColor: '#0a7f3c',
      backgroundColor: '#101010',
      textColor: '#ffffff',
      modelLoadingLogo: `http://portal.test${saved.body.modelLoadingLogo}`,
    });
    const viewer = await request(h.app)
      .get('/api/viewer/model')
      .query({ model: model.urlModelName, subscription: embed.body.token, currentmode: 'embedding' });
    expect(viewer.status).toBe(200);
    expect(viewer.body.branding).toMatchObject({ primaryColor: '#0a7f3c', backgroundColor: '#101010' });
  });
});
