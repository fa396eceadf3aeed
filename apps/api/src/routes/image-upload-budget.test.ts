import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@helix/shared';
import { ERROR_CODES } from '@helix/shared/error-codes';
import { tenantImageSlot } from '@helix/server/models/tenant-image-slot';
import { filterBombSvg } from '@helix/worker/images/filter-bomb.fixture';
import {
  bearer,
  createModelHarness,
  customer,
  member,
  png,
  type Caller,
  type ModelHarness,
} from '../../test/models.ts';

let h: ModelHarness;
let owner: Caller;
let other: Caller;

beforeAll(async () => {
  h = await createModelHarness({ IMAGE_UPLOAD_RATE_LIMIT_MAX: '4' });
  owner = await customer(h);
  other = await customer(h);
});
afterAll(async () => {
  await h?.close();
});

const edit = (caller: Caller, picture?: { bytes: Buffer; name: string }) => {
  const req = request(h.app)
    .post(`${caller.base}/user/edit`)
    .set(bearer(caller.token))
    .field('name', 'Olivia');
  return picture ? req.attach('profilePicture', picture.bytes, picture.name) : req;
};

describe('image checks within a budget', () => {
  it('refuses an SVG filter bomb as a profile picture with 422 IMAGE_TOO_COMPLEX and keeps the old picture', async () => {
    const before = (await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).profilePicture;
    const res = await edit(owner, { bytes: filterBombSvg(), name: 'me.svg' });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      code: ERROR_CODES.imageTooComplex,
      message: MSG.imageTooComplex,
      errors: { profilePicture: MSG.imageTooComplex },
    });
    expect((await h.db.user.findUniqueOrThrow({ where: { id: owner.user.id } })).profilePicture).toBe(before);
  });
});

describe('one image check per tenant at a time', () => {
  it("makes a tenant's second upload wait its turn while another tenant's goes ahead", async () => {
    // The owner's tenant is busy with another image (its one slot taken).
    const held = await tenantImageSlot(h.deps, owner.tenant.id, 'profilePicture');
    const colleague = await member(h, owner.tenant, ['Admin']);
    let waitingDone = false;
    const waiting = edit(colleague, { bytes: await png(64, 64), name: 'me.png' }).then((res) => {
      waitingDone = true;
      return res;
    });
    // Another tenant is not held up by it.
    const elsewhere = await edit(other, { bytes: await png(64, 64), name: 'me.png' });
    expect(elsewhere.status).toBe(200);
    expect(waitingDone).toBe(false);
    await held.release();
    expect((await waiting).status).toBe(200);
  });

  it('answers 429 IMAGE_CHECK_BUSY with Retry-After when the slot is not free in time', async () => {
    const held = await tenantImageSlot(h.deps, owner.tenant.id, 'profilePicture');
    try {
      const error = await tenantImageSlot(h.deps, owner.tenant.id, 'thumbnail', {
        limit: 1,
        waitMs: 300,
      }).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({
        status: 429,
        code: ERROR_CODES.imageCheckBusy,
        message: MSG.imageCheckBusy,
        errors: { thumbnail: MSG.imageCheckBusy },
        retryAfter: 5,
      });
    } finally {
      await held.release();
    }
    // Given back: the next one gets it at once.
    const next = await tenantImageSlot(h.deps, owner.tenant.id, 'thumbnail', { limit: 1, waitMs: 300 });
    await next.release();
  });

  it('keeps waiting through a command Redis answered too late, and the slot that command took is not lost', async () => {
    // Redis takes the slot, but its answer comes after the client's command timeout (a loaded Redis):
    // ioredis rejects with "Command timed out" while the slot is held under this upload's identifier.
    let late = 0;
    const slowOnce = new Proxy(h.deps.redis, {
      get(target, name, receiver) {
        const value: unknown = Reflect.get(target, name, receiver);
        if (typeof value !== 'function') return value;
        if (name !== 'evalsha' && name !== 'eval') return value.bind(target);
        return async (...args: unknown[]) => {
          const answer: unknown = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          if (late === 0) {
            late += 1;
            throw new Error('Command timed out');
          }
          return answer;
        };
      },
    });
    const slot = await tenantImageSlot({ ...h.deps, redis: slowOnce }, other.tenant.id, 'thumbnail', {
      limit: 1,
      waitMs: 2000,
    });
    expect(late).toBe(1);
    await slot.release();
    // Nothing left held: the next upload gets the slot at once.
    const next = await tenantImageSlot(h.deps, other.tenant.id, 'thumbnail', { limit: 1, waitMs: 300 });
    await next.release();
  });
});

describe('image uploads are rate limited per user', () => {
  it('answers 429 with the catalogue message and Retry-After past the limit; edits without an image are not counted', async () => {
    const uploader = await member(h, other.tenant, ['Admin']);
    for (let i = 0; i < 4; i += 1) {
      expect((await edit(uploader, { bytes: await png(32, 32), name: 'me.png' })).status).toBe(200);
      expect((await edit(uploader)).status).toBe(200);
    }
    const over = await edit(uploader, { bytes: await png(32, 32), name: 'me.png' });
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: ERROR_CODES.tooManyRequests, message: MSG.imageUploadsTooMany });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    // Other routes that take an image share the counter (a support screenshot here) ...
    const support = await request(h.app)
      .post(`${uploader.base}/support`)
      .set(bearer(uploader.token))
      .field('subject', 'Logo')
      .field('message', 'The logo looks wrong')
      .attach('screenshot', await png(32, 32), 'shot.png');
    expect(support.status).toBe(429);
    expect(support.body.message).toBe(MSG.imageUploadsTooMany);
    // ... a name change still works, and another user of the tenant is not limited.
    expect((await edit(uploader)).status).toBe(200);
    expect((await edit(other, { bytes: await png(32, 32), name: 'me.png' })).status).toBe(200);
  });
});
