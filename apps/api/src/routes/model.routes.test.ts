import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan } from '@helix/server/testing/factories';
import {
  bearer,
  createModel,
  createModelHarness,
  customer,
  glb,
  member,
  platformAdmin,
  png,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

let h: ModelHarness;
let admin: Caller;

beforeAll(async () => {
  h = await createModelHarness();
  admin = await platformAdmin(h);
});
afterAll(async () => {
  await h?.close();
});

const get = (caller: Caller, path: string) =>
  request(h.app).get(`${caller.base}${path}`).set(bearer(caller.token));
const post = (caller: Caller, path: string, body: object) =>
  request(h.app).post(`${caller.base}${path}`).set(bearer(caller.token)).send(body);

/** POST /model/update as multipart/form-data. */
function saveForm(
  caller: Caller,
  fields: Record<string, string | number | boolean>,
  files: { file?: Buffer; thumbnail?: Buffer; thumbnailName?: string } = {},
) {
  let req = request(h.app).post(`${caller.base}/model/update`).set(bearer(caller.token));
  for (const [name, value] of Object.entries(fields)) req = req.field(name, String(value));
  if (files.file) req = req.attach('file', files.file, 'model.glb');
  if (files.thumbnail) req = req.attach('thumbnail', files.thumbnail, files.thumbnailName ?? 'thumb.png');
  return req;
}

const names = (res: request.Response) => (res.body.models as { name: string }[]).map((m) => m.name);

describe('visibility', () => {
  it('a tenant sees public models and the non-public ones listing it; others get 404', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const pub = await createModel(h, { name: 'Public heart' });
    const forA = await createModel(h, {
      name: 'Only for A',
      isPublic: false,
      restrictedTenants: [a.tenant.id],
    });
    const hidden = await createModel(h, { name: 'Nobody', isPublic: false });

    const listA = await get(a, '/model/all');
    expect(listA.status).toBe(200);
    expect(names(listA)).toContain(pub.name);
    expect(names(listA)).toContain(forA.name);
    expect(names(listA)).not.toContain(hidden.name);
    const mine = listA.body.models.find((m: { id: number }) => m.id === forA.id);
    expect(mine.restrictedTenants).toEqual([]); // only admins see the tenant list

    const listB = await get(b, '/model/all');
    expect(names(listB)).toContain(pub.name);
    expect(names(listB)).not.toContain(forA.name);

    // Opening or embedding a model the tenant cannot see is the same 404 as a missing one.
    for (const id of [forA.id, hidden.id, 999_999]) {
      expect((await post(b, '/model/viewer-url', { id })).status).toBe(404);
      expect((await post(b, '/model/embed', { id, settings: [] })).status).toBe(404);
    }
    expect((await post(a, '/model/viewer-url', { id: forA.id })).status).toBe(200);

    const listAdmin = await get(admin, '/model/all');
    expect(names(listAdmin)).toEqual(expect.arrayContaining([pub.name, forA.name, hidden.name]));
    const adminView = listAdmin.body.models.find((m: { id: number }) => m.id === forA.id);
    expect(adminView.restrictedTenants).toEqual([a.tenant.id]);
    expect(listAdmin.body.views).toBeNull();
  });

  it('never lists deleted models', async () => {
    const a = await customer(h);
    const gone = await createModel(h, { name: 'Deleted one' });
    await h.db.model.update({ where: { id: gone.id }, data: { deletedAt: new Date() } });
    expect(names(await get(a, '/model/all'))).not.toContain('Deleted one');
    expect(names(await get(admin, '/model/all'))).not.toContain('Deleted one');
  });

  it('answers 404 for another tenant in the path (tenant isolation)', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const res = await request(h.app).get(`${b.base}/model/all`).set(bearer(a.token));
    expect(res.status).toBe(404);
    const res2 = await request(h.app)
      .post(`${b.base}/model/embed`)
      .set(bearer(a.token))
      .send({ id: 1, settings: [] });
    expect(res2.status).toBe(404);
  });
});

describe('search and sort', () => {
  it('filters by a case-insensitive substring and sorts by the four orders (default createdAt-Asc)', async () => {
    const tag = `zz${Date.now()}`;
    const t0 = Date.now() - 100_000;
    await createModel(h, { name: `${tag} beta`, createdAt: new Date(t0) });
    await createModel(h, { name: `${tag.toUpperCase()} Alpha`, createdAt: new Date(t0 + 1000) });
    await createModel(h, { name: `${tag} gamma`, createdAt: new Date(t0 + 2000) });
    const list = async (query: string) => names(await get(admin, `/model/all?search=${tag}${query}`));
    expect(await list('')).toEqual([`${tag} beta`, `${tag.toUpperCase()} Alpha`, `${tag} gamma`]);
    expect(await list('&sort=name-Asc')).toEqual([
      `${tag.toUpperCase()} Alpha`,
      `${tag} beta`,
      `${tag} gamma`,
    ]);
    expect(await list('&sort=name-Desc')).toEqual([
      `${tag} gamma`,
      `${tag} beta`,
      `${tag.toUpperCase()} Alpha`,
    ]);
    expect(await list('&sort=createdAt-Desc')).toEqual([
      `${tag} gamma`,
      `${tag.toUpperCase()} Alpha`,
      `${tag} beta`,
    ]);
    expect(names(await get(admin, `/model/all?search=${tag.toUpperCase()}%20ALPHA`))).toEqual([
      `${tag.toUpperCase()} Alpha`,
    ]);
  });

  it('matches % and _ literally, not as wildcards (regression)', async () => {
    const tag = `pc${Date.now()}`;
    await createModel(h, { name: `${tag} 50% scale` });
    await createModel(h, { name: `${tag} 50 percent` });
    await createModel(h, { name: `${tag} a_b` });
    await createModel(h, { name: `${tag} axb` });
    await createModel(h, { name: `${tag} back\\slash` });
    const search = async (text: string) =>
      names(await get(admin, `/model/all?search=${encodeURIComponent(`${tag} ${text}`)}`));
    expect(await search('50%')).toEqual([`${tag} 50% scale`]);
    expect(await search('a_b')).toEqual([`${tag} a_b`]);
    expect(await search('5_')).toEqual([]); // as a wildcard, _ would match '50'
    expect(await search('back\\')).toEqual([`${tag} back\\slash`]);
  });

  it('refuses unknown sorts, unknown parameters and repeated parameters with 400', async () => {
    for (const query of ['?sort=price-Asc', '?page=2', '?search=a&search=b', `?search=${'x'.repeat(101)}`]) {
      const res = await get(admin, `/model/all${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: expect.any(String) });
    }
  });
});

describe('permissions', () => {
  it('answers 403 for each action without its permission', async () => {
    const a = await customer(h);
    const nobody = await member(h, a.tenant, []); // no roles, no permissions
    const model = await createModel(h);
    expect((await get(nobody, '/model/all')).status).toBe(403);
    expect((await post(nobody, '/model/viewer-url', { id: model.id })).status).toBe(403);
    expect((await post(nobody, '/model/embed', { id: model.id, settings: [] })).status).toBe(403);
    expect((await post(nobody, '/model/delete', { id: model.id })).status).toBe(403);
    expect((await saveForm(nobody, { id: 0, name: 'x', urlModelName: 'x' }, { file: glb() })).status).toBe(
      403,
    );
    expect((await get(nobody, '/tenant/getAllTenants')).status).toBe(403);
  });

  it('keeps the catalogue for platform admins: a tenant Admin cannot add, update or delete models', async () => {
    const a = await customer(h); // role Admin: holds Model.add, Model.update, Model.delete
    const model = await createModel(h);
    const add = await saveForm(a, { id: 0, name: 'Mine', urlModelName: 'mine-model' }, { file: glb() });
    expect(add.status).toBe(403);
    expect(add.body).toMatchObject({ statusCode: 403, error: 'Forbidden' });
    const update = await saveForm(a, { id: model.id, name: 'Renamed', urlModelName: model.urlModelName });
    expect(update.status).toBe(403);
    expect((await post(a, '/model/delete', { id: model.id })).status).toBe(403);
    expect((await get(a, '/tenant/getAllTenants')).status).toBe(403);
    expect((await h.db.model.findUniqueOrThrow({ where: { id: model.id } })).deletedAt).toBeNull();
  });

  it('a User role may list, open and embed (plan with modelEmbed) but not change the catalogue', async () => {
    const a = await customer(h);
    const user = await member(h, a.tenant, ['User']);
    const model = await createModel(h);
    expect((await get(user, '/model/all')).status).toBe(200);
    expect((await post(user, '/model/viewer-url', { id: model.id })).status).toBe(200);
    expect((await post(user, '/model/embed', { id: model.id, settings: ['info'] })).status).toBe(200);
    expect((await post(user, '/model/delete', { id: model.id })).status).toBe(403);
  });

  it('refuses embedding when the plan has no modelEmbed (403)', async () => {
    const plan = await createPlan(h.db, {
      modelEmbed: false,
      viewLimit: 100,
      permissions: CUSTOMER_PLAN_PERMISSIONS,
    });
    const a = await customer(h, { plan });
    const model = await createModel(h);
    const res = await post(a, '/model/embed', { id: model.id, settings: [] });
    expect(res.status).toBe(403);
    // A platform admin needs no plan.
    expect((await post(admin, '/model/embed', { id: model.id, settings: [] })).status).toBe(200);
  });
});

describe('add, update and delete (platform admin)', () => {
  it('adds a model with a .glb and a thumbnail (201), stores both, re-encodes the thumbnail', async () => {
    const res = await saveForm(
      admin,
      { id: 0, name: 'Human heart', urlModelName: 'human-heart', isPublic: 'true', restrictedTenants: '[]' },
      { file: glb(), thumbnail: await png(1000, 800) },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Human heart',
      urlModelName: 'human-heart',
      isPublic: true,
      version: 1,
      viewCount: 0,
      restrictedTenants: [],
      url: expect.stringMatching(/^\/api\/files\/models\/\d+\?v=1$/),
      thumbnail: expect.stringMatching(/^\/api\/files\/images\/thumbnail-[\w-]+\.webp$/),
    });
    const row = await h.db.model.findUniqueOrThrow({ where: { id: res.body.id } });
    expect(await h.storage.exists(row.fileKey!)).toBe(true);
    const image = await request(h.app).get(res.body.thumbnail);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(image.headers['cache-control']).toMatch(/max-age=31536000/);
    const sharp = (await import('sharp')).default;
    const meta = await sharp(image.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 480, 360]);
  });

  it('updates (200): fields, restricted tenants, thumbnail as a data URL; the version goes up', async () => {
    const a = await customer(h);
    const created = await saveForm(
      admin,
      { id: 0, name: 'Lung', urlModelName: 'lung-model' },
      { file: glb() },
    );
    expect(created.status).toBe(201);
    const dataUrl = `data:image/png;base64,${(await png(300, 300)).toString('base64')}`;
    const res = await saveForm(admin, {
      id: created.body.id,
      name: 'Lungs',
      urlModelName: 'lungs-model',
      isPublic: false,
      restrictedTenants: JSON.stringify([a.tenant.id]),
      thumbnail: dataUrl,
      version: 1,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Lungs',
      urlModelName: 'lungs-model',
      isPublic: false,
      restrictedTenants: [a.tenant.id],
      version: 2,
      thumbnail: expect.stringMatching(/\.webp$/),
    });
    // 'null' keeps the thumbnail, '' removes it; a stale version is a conflict.
    const keep = await saveForm(admin, {
      id: created.body.id,
      name: 'Lungs',
      urlModelName: 'lungs-model',
      thumbnail: 'null',
    });
    expect(keep.body.thumbnail).toBe(res.body.thumbnail);
    const stale = await saveForm(admin, {
      id: created.body.id,
      name: 'X',
      urlModelName: 'lungs-model',
      version: 1,
    });
    expect(stale.status).toBe(409);
    const removed = await saveForm(admin, {
      id: created.body.id,
      name: 'Lungs',
      urlModelName: 'lungs-model',
      thumbnail: '',
    });
    expect(removed.body.thumbnail).toBeNull();
    // The tenant sees it now; another does not.
    expect(names(await get(a, '/model/all'))).toContain('Lungs');
  });

  it('an update that omits isPublic and restrictedTenants leaves them as they are (regression)', async () => {
    const a = await customer(h);
    const b = await customer(h);
    const model = await createModel(h, {
      name: 'Kept private',
      isPublic: false,
      restrictedTenants: [a.tenant.id],
    });
    const res = await post(admin, '/model/update', {
      id: model.id,
      name: 'Kept private 2',
      urlModelName: model.urlModelName,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      name: 'Kept private 2',
      isPublic: false,
      restrictedTenants: [a.tenant.id],
    });
    expect(names(await get(a, '/model/all'))).toContain('Kept private 2');
    expect(names(await get(b, '/model/all'))).not.toContain('Kept private 2');
    // Given explicitly, they change.
    const opened = await post(admin, '/model/update', {
      id: model.id,
      name: 'Kept private 2',
      urlModelName: model.urlModelName,
      isPublic: true,
      restrictedTenants: [],
    });
    expect(opened.body).toMatchObject({ isPublic: true, restrictedTenants: [] });
  });

  it('also takes JSON without files for an update', async () => {
    const model = await createModel(h, { name: 'Json model' });
    const res = await post(admin, '/model/update', {
      id: model.id,
      name: 'Json model 2',
      urlModelName: model.urlModelName,
      isPublic: true,
      restrictedTenants: [],
      thumbnail: null,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.name).toBe('Json model 2');
  });

  it('validates the form with the spec messages', async () => {
    const missing = await saveForm(admin, { id: 0 }, { file: glb() });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toMatchObject({
      name: MSG.modelNameRequired,
      urlModelName: MSG.modelUrlNameRequired,
    });
    for (const bad of ['Heart', 'heart model', 'heart--model', '-heart', 'heart-', 'heart_model', 'héart']) {
      const res = await saveForm(admin, { id: 0, name: 'H', urlModelName: bad }, { file: glb() });
      expect(res.status, bad).toBe(400);
      expect(res.body.errors.urlModelName, bad).toBe(MSG.modelUrlNameRule);
    }
    const noFile = await saveForm(admin, { id: 0, name: 'H', urlModelName: 'no-file' });
    expect(noFile.status).toBe(400);
    expect(noFile.body.errors).toEqual({ file: MSG.modelFileRequired });
    const unknownTenant = await saveForm(
      admin,
      { id: 0, name: 'H', urlModelName: 'unknown-tenant', restrictedTenants: '[987654]' },
      { file: glb() },
    );
    expect(unknownTenant.status).toBe(400);
    expect(unknownTenant.body.errors).toEqual({ restrictedTenants: MSG.unknownTenants });
    const platformTenant = await saveForm(
      admin,
      { id: 0, name: 'H', urlModelName: 'platform-tenant', restrictedTenants: `[${admin.tenant.id}]` },
      { file: glb() },
    );
    expect(platformTenant.body.errors).toEqual({ restrictedTenants: MSG.unknownTenants });
    const extra = await saveForm(
      admin,
      { id: 0, name: 'H', urlModelName: 'extra', isAdmin: 'true' },
      { file: glb() },
    );
    expect(extra.status).toBe(400);
    expect(extra.body.errors).toEqual({ isAdmin: MSG.unknownField });
  });

  it('refuses a .glb that is not glTF with a clear message', async () => {
    const notGltf = [
      Buffer.from('this is just text, named model.glb'),
      Buffer.concat([Buffer.from('glTF'), Buffer.alloc(40)]), // version 0
      (() => {
        const b = glb();
        b.writeUInt32LE(b.length + 4, 8); // declared length wrong
        return b;
      })(),
      glb({ asset: { version: '1.0' } }),
      (() => {
        const b = glb();
        b.write('{{{{', 20); // JSON chunk does not parse
        return b;
      })(),
    ];
    for (const [i, file] of notGltf.entries()) {
      const res = await saveForm(admin, { id: 0, name: 'Bad', urlModelName: `bad-glb-${i}` }, { file });
      expect(res.status, String(i)).toBe(400);
      expect(res.body).toMatchObject({
        message: MSG.modelFileInvalid,
        errors: { file: MSG.modelFileInvalid },
      });
    }
    expect(await h.db.model.count({ where: { name: 'Bad' } })).toBe(0);
  });

  it('answers 409 with a field error for a duplicate urlModelName; a deleted model frees its name', async () => {
    const first = await saveForm(admin, { id: 0, name: 'Kidney', urlModelName: 'kidney' }, { file: glb() });
    expect(first.status).toBe(201);
    const dup = await saveForm(admin, { id: 0, name: 'Kidney 2', urlModelName: 'kidney' }, { file: glb() });
    expect(dup.status).toBe(409);
    expect(dup.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'CONFLICT',
      message: MSG.modelUrlNameTaken,
      errors: { urlModelName: MSG.modelUrlNameTaken },
    });
    const other = await createModel(h);
    const rename = await saveForm(admin, { id: other.id, name: 'x', urlModelName: 'kidney' });
    expect(rename.status).toBe(409);

    const del = await post(admin, '/model/delete', { id: first.body.id });
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ message: MSG.modelDeleted });
    expect((await post(admin, '/model/delete', { id: first.body.id })).status).toBe(404);
    const again = await saveForm(
      admin,
      { id: 0, name: 'Kidney new', urlModelName: 'kidney' },
      { file: glb() },
    );
    expect(again.status).toBe(201);
    const deleted = await h.db.model.findUniqueOrThrow({ where: { id: first.body.id } });
    expect(deleted.deletedAt).not.toBeNull();
  });

  it('two concurrent adds with one urlModelName: one 201, one 409', async () => {
    const results = await Promise.all(
      [1, 2].map((i) =>
        saveForm(admin, { id: 0, name: `Race ${i}`, urlModelName: 'race-model' }, { file: glb() }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
  });

  it('updating a missing or deleted model is a 404', async () => {
    expect((await saveForm(admin, { id: 987654, name: 'x', urlModelName: 'x' })).status).toBe(404);
    expect((await post(admin, '/model/delete', { id: 987654 })).status).toBe(404);
  });
});

describe('uploads', () => {
  const form = (i: string) => ({ id: 0, name: 'Upload', urlModelName: `upload-${i}` });

  it('checks thumbnails by content: a text file named .png is refused', async () => {
    const res = await saveForm(admin, form('text'), {
      file: glb(),
      thumbnail: Buffer.from('not an image at all'),
      thumbnailName: 'x.png',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ thumbnail: MSG.imageTypeNotAllowed });
  });

  it('refuses a GIF (not an allowed type) and an image over 1000 x 1000', async () => {
    const sharp = (await import('sharp')).default;
    const gif = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    const res = await saveForm(admin, form('gif'), { file: glb(), thumbnail: gif, thumbnailName: 'x.jpg' });
    expect(res.body.errors).toEqual({ thumbnail: MSG.imageTypeNotAllowed });
    const big = await saveForm(admin, form('big'), { file: glb(), thumbnail: await png(1001, 10) });
    expect(big.status).toBe(400);
    expect(big.body.errors).toEqual({ thumbnail: MSG.dimensionsOver1000 });
  });

  it('refuses a thumbnail over 1 MB (file part or data URL) with the spec message', async () => {
    const huge = Buffer.alloc(1024 * 1024 + 1, 1);
    const res = await saveForm(admin, form('huge'), { file: glb(), thumbnail: huge });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      statusCode: 400,
      message: MSG.fileOver1mb,
      errors: { thumbnail: MSG.fileOver1mb },
    });
    const asDataUrl = await saveForm(
      admin,
      { ...form('huge2'), thumbnail: `data:image/png;base64,${huge.toString('base64')}` },
      { file: glb() },
    );
    expect(asDataUrl.status).toBe(400);
    expect(asDataUrl.body.errors).toEqual({ thumbnail: MSG.fileOver1mb });
  });

  it('refuses an SVG served as-is: it comes back as WebP', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150"><script>alert(1)</script><rect width="200" height="150" fill="#5f51fb"/></svg>',
    );
    const res = await saveForm(admin, form('svg'), {
      file: glb(),
      thumbnail: svg,
      thumbnailName: 'logo.svg',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const image = await request(h.app).get(res.body.thumbnail);
    expect(image.headers['content-type']).toBe('image/webp');
    expect((image.body as Buffer).subarray(0, 4).toString()).toBe('RIFF');
    expect((image.body as Buffer).includes(Buffer.from('<script'))).toBe(false);
  });

  it('turns multer limits into clear 4xx answers', async () => {
    const tooMany = await request(h.app)
      .post(`${admin.base}/model/update`)
      .set(bearer(admin.token))
      .field('name', 'x')
      .attach('file', glb(), 'a.glb')
      .attach('file', glb(), 'b.glb');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ statusCode: 400, message: MSG.uploadTooManyFiles });
    const unexpected = await request(h.app)
      .post(`${admin.base}/model/update`)
      .set(bearer(admin.token))
      .attach('avatar', glb(), 'a.glb');
    expect(unexpected.status).toBe(400);
    expect(unexpected.body.errors).toEqual({ avatar: MSG.uploadUnexpectedFile });
    const broken = await request(h.app)
      .post(`${admin.base}/model/update`)
      .set(bearer(admin.token))
      .set('Content-Type', 'multipart/form-data; boundary=xyz')
      .send('--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc');
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ statusCode: 400, message: MSG.uploadInvalid });
  });

  it('answers 413 for a model file over the limit', async () => {
    const small = h.appWith({ MODEL_UPLOAD_MAX_MB: '1' });
    const res = await request(small)
      .post(`${admin.base}/model/update`)
      .set(bearer(admin.token))
      .field('id', '0')
      .field('name', 'Big')
      .field('urlModelName', 'big-model')
      .attach('file', Buffer.alloc(1024 * 1024 + 10), 'big.glb');
    expect(res.status).toBe(413);
    expect(res.body.errors).toEqual({ file: MSG.modelFileTooLarge(1) });
  });
});

describe('tenants and statistics', () => {
  it('GET /tenant/getAllTenants lists customer tenants for platform admins', async () => {
    const a = await customer(h, { name: 'Acme Labs' });
    const res = await get(admin, '/tenant/getAllTenants');
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({
      id: a.tenant.id,
      name: 'Acme Labs',
      domainPrefix: a.tenant.domainPrefix,
    });
    expect(res.body.find((t: { id: number }) => t.id === admin.tenant.id)).toBeUndefined();
    expect((await get(admin, '/tenant/getAllTenants?x=1')).status).toBe(400);
  });

  it('answers views for non-admins, and users only when asked (users=true) with User.listing.view', async () => {
    const a = await customer(h);
    expect((await get(a, '/model/all')).body.users).toEqual([]);
    expect((await get(a, '/model/all?users=maybe')).status).toBe(400);
    const res = await get(a, '/model/all?users=true');
    expect(res.body.views).toEqual({
      viewCount: 0,
      viewLimit: 1000,
      additionalViews: 0,
      additionalViewsUsed: 0,
      additionalViewsPrice: 0,
      additionalViewsValidation: false,
      // The grace band (VIEW_GRACE_PERCENT 10 of the plan); nothing is refused with validation off.
      graceViews: 100,
      refuseAt: null,
      periodStart: expect.any(String),
      periodEnd: expect.any(String),
    });
    expect(res.body.users).toEqual([{ id: a.user.id, name: a.user.name, email: a.user.email, models: [] }]);
    const plain = await member(h, a.tenant, ['User']); // no User.listing.view
    expect((await get(plain, '/model/all?users=true')).body.users).toEqual([]);
  });
});

describe('bad input never gives a 500', () => {
  const HOSTILE: unknown[] = [
    null,
    true,
    'x',
    -1,
    1.5,
    '1; DROP TABLE "Model"',
    [],
    {},
    { $ne: null },
    2 ** 40,
    '<script>',
  ];
  it.each(['/model/delete', '/model/viewer-url', '/model/embed'])('%s', async (path) => {
    for (const id of HOSTILE) {
      for (const body of [
        { id },
        { id, settings: id },
        { id: 1, settings: ['info', 'info'] },
        { id: 1, settings: ['nope'] },
      ]) {
        const res = await post(admin, path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBeGreaterThanOrEqual(400);
        expect(res.status).toBeLessThan(500);
        expect(res.body).toMatchObject({ statusCode: res.status, message: expect.any(String) });
      }
    }
    const json = await request(h.app)
      .post(`${admin.base}${path}`)
      .set(bearer(admin.token))
      .set('Content-Type', 'application/json')
      .send('{"id": ');
    expect(json.status).toBe(400);
  });

  it('/model/update with hostile fields', async () => {
    for (const fields of [
      { id: 'abc', name: 'x', urlModelName: 'x' },
      { id: '-1', name: 'x', urlModelName: 'x' },
      { id: 0, name: 'x'.repeat(5000), urlModelName: 'x' },
      { id: 0, name: 'a\u0000b', urlModelName: 'x' },
      { id: 0, name: 'x', urlModelName: 'x', restrictedTenants: '{"a":1}' },
      { id: 0, name: 'x', urlModelName: 'x', restrictedTenants: '[1,"a"]' },
      { id: 0, name: 'x', urlModelName: 'x', restrictedTenants: 'not json' },
      { id: 0, name: 'x', urlModelName: 'x', isPublic: 'maybe' },
      { id: 0, name: 'x', urlModelName: 'x', thumbnail: 'data:image/png;base64,@@@' },
      { id: 0, name: 'x', urlModelName: 'x', thumbnail: 'javascript:alert(1)' },
      { id: 0, name: 'x', urlModelName: 'x', backgroundColor: 'red' },
    ]) {
      const res = await saveForm(admin, fields as never, { file: glb() });
      expect(res.status, JSON.stringify(fields).slice(0, 100)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });
});
