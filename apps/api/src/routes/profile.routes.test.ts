import request from 'supertest';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ProfileUpdateResponse } from '@helix/shared/schemas/profile';
import { PASSWORD } from '@helix/server/testing/factories';
import {
  bearer,
  createModelHarness,
  customer,
  member,
  platformAdmin,
  png,
  sessionFor,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';
import { deleteKeys } from '../../test/harness.ts';

let h: ModelHarness;
let admin: Caller;
let owner: Caller;
let user: Caller;
let otherOwner: Caller;

beforeAll(async () => {
  h = await createModelHarness();
  admin = await platformAdmin(h);
  owner = await customer(h);
  user = await member(h, owner.tenant, ['User']);
  otherOwner = await customer(h);
});
afterAll(async () => {
  await h?.close();
});

/** POST /user/edit as multipart/form-data (what the profile page sends). */
function edit(caller: Caller | null, fields: Record<string, string>, picture?: Buffer, base = caller?.base) {
  let req = request(h.app).post(`${base}/user/edit`);
  if (caller) req = req.set(bearer(caller.token));
  for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
  if (picture) req = req.attach('profilePicture', picture, 'me.png');
  return req;
}

describe('POST /user/edit under every role', () => {
  it('lets a platform admin, an owner and a user edit their own profile', async () => {
    for (const caller of [admin, owner, user]) {
      const res = await edit(caller, { name: `  Renamed ${caller.user.id} ` });
      expect(res.status).toBe(200);
      const body = ProfileUpdateResponse.parse(res.body);
      expect(body.message).toBe(MSG.userUpdated);
      expect(body.user).toMatchObject({ id: caller.user.id, name: `Renamed ${caller.user.id}` });
    }
  });

  it("refuses a user without Profile.update (403), another tenant's owner (404) and no session (401)", async () => {
    const bare = await member(h, owner.tenant, []);
    expect((await edit(bare, { name: 'X' })).status).toBe(403);
    expect((await edit(otherOwner, { name: 'X' }, undefined, owner.base)).status).toBe(404);
    expect((await edit(null, { name: 'X' }, undefined, owner.base)).status).toBe(401);
    const stored = await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } });
    expect(stored.name).not.toBe('X');
  });

  it('keeps the e-mail read-only', async () => {
    const res = await edit(owner, { name: 'Olivia', email: 'someone-else@example.test' });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(owner.user.email);
  });

  it('requires a name', async () => {
    const res = await edit(owner, { name: ' ' });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({ name: MSG.addUserName });
  });
});

describe('profile picture', () => {
  it('stores the picture checked by content, cut to a 256 px square, and removes it with an empty value', async () => {
    const res = await edit(owner, { name: 'Olivia' }, await png(600, 400));
    expect(res.status).toBe(200);
    const url: string = res.body.user.profilePicture;
    expect(url).toMatch(/^\/api\/files\/images\/profile-[\w-]+\.webp$/);
    const file = await request(h.app).get(url).buffer(true);
    expect(file.status).toBe(200);
    const meta = await sharp(file.body as Buffer).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);

    // The session user (GET /user/info) shows it too.
    const info = await request(h.app).get(`${owner.base}/user/info`).set(bearer(owner.token));
    expect(info.body.profilePicture).toBe(url);

    const key = (await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).profilePicture!;
    const removed = await edit(owner, { name: 'Olivia', profilePicture: '' });
    expect(removed.status).toBe(200);
    expect(removed.body.user.profilePicture).toBe(null);
    expect(await h.storage.getBytes(key)).toBe(null);
  });

  it('accepts the picture as a data URL too', async () => {
    const dataUrl = `data:image/png;base64,${(await png(50, 50)).toString('base64')}`;
    const res = await edit(owner, { name: 'Olivia', profilePicture: dataUrl });
    expect(res.status).toBe(200);
    expect(res.body.user.profilePicture).toMatch(/profile-/);
  });

  it('refuses pictures over 1000 x 1000, over 1 MB, or not images, with the spec messages', async () => {
    const big = await edit(owner, { name: 'Olivia' }, await png(1001, 500));
    expect(big.status).toBe(400);
    expect(big.body.errors).toEqual({ profilePicture: MSG.dimensionsOver1000 });
    const heavy = await edit(owner, { name: 'Olivia' }, Buffer.alloc(1024 * 1024 + 1));
    expect(heavy.status).toBe(400);
    expect(heavy.body.errors).toEqual({ profilePicture: MSG.fileOver1mb });
    const text = await edit(owner, { name: 'Olivia' }, Buffer.from('<html>not an image</html>'));
    expect(text.status).toBe(400);
    expect(text.body.errors).toEqual({ profilePicture: MSG.imageTypeNotAllowed });
  });
});

describe('password change', () => {
  it.each([
    [{ newPassword: 'abcdef', confirmPassword: 'abcdef' }, 'oldPassword', MSG.oldPasswordRequired],
    [{ oldPassword: PASSWORD }, 'newPassword', MSG.newPasswordRequired],
    [{ oldPassword: PASSWORD, newPassword: 'abc', confirmPassword: 'abc' }, 'newPassword', MSG.passwordMin6],
    [
      { oldPassword: PASSWORD, newPassword: 'abcdefg', confirmPassword: 'abcdefh' },
      'confirmPassword',
      MSG.newPasswordMismatch,
    ],
  ])('refuses %j with the message on %s', async (fields, field, message) => {
    const res = await edit(owner, { name: 'Olivia', ...fields });
    expect(res.status).toBe(400);
    expect(res.body.errors).toMatchObject({ [field]: message });
  });

  it('refuses a wrong old password', async () => {
    const res = await edit(owner, {
      name: 'Olivia',
      oldPassword: 'not my password',
      newPassword: 'brand new pass',
      confirmPassword: 'brand new pass',
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual({ oldPassword: MSG.oldPasswordWrong });
  });

  it('limits password-change attempts like logins, not name or picture edits', async () => {
    // The attempts of the tests above count against the same address: start from zero.
    await deleteKeys(h.redis, `${h.config.REDIS_PREFIX}*password-change*`);
    const app = h.appWith({ RATE_LIMIT_MAX: '2' });
    const guesser = await member(h, owner.tenant, ['User']);
    const attempt = () =>
      request(app)
        .post(`${guesser.base}/user/edit`)
        .set(bearer(guesser.token))
        .field('name', 'Guesser')
        .field('oldPassword', 'a wrong guess')
        .field('newPassword', 'abcdefgh')
        .field('confirmPassword', 'abcdefgh');
    expect((await attempt()).status).toBe(400);
    expect((await attempt()).status).toBe(400);
    expect((await attempt()).status).toBe(429);
    const rename = await request(app)
      .post(`${guesser.base}/user/edit`)
      .set(bearer(guesser.token))
      .field('name', 'Still Editable');
    expect(rename.status).toBe(200);
  });

  it("changes the password and ends the user's other sessions, not this one", async () => {
    const changer = await member(h, owner.tenant, ['User']);
    const otherSession = await sessionFor(h, changer.user);
    // sessionFor replaced the first session (one computer at a time): sign in again for this one.
    const current = await sessionFor(h, changer.user);
    const caller = { ...changer, token: current };
    // A second session that is still active (as a login elsewhere would be, before this change).
    await h.db.session.updateMany({
      where: { userId: changer.user.id },
      data: { endedAt: null, endedReason: null },
    });
    const res = await edit(caller, {
      name: 'Changer',
      oldPassword: PASSWORD,
      newPassword: 'a new secret',
      confirmPassword: 'a new secret',
    });
    expect(res.status).toBe(200);

    const mine = await request(h.app).get(`${caller.base}/user/info`).set(bearer(current));
    expect(mine.status).toBe(200);
    const theirs = await request(h.app).get(`${caller.base}/user/info`).set(bearer(otherSession));
    expect(theirs.status).toBe(401);
    expect(theirs.body.error).not.toBe(MSG.invalidToken);

    const oldLogin = await request(h.app)
      .post('/api/user/login')
      .send({ email: changer.user.email, password: PASSWORD });
    expect(oldLogin.status).toBe(400);
    const newLogin = await request(h.app)
      .post('/api/user/login')
      .send({ email: changer.user.email, password: 'a new secret' });
    expect(newLogin.status).toBe(200);
  });
});
