import PostalMime from 'postal-mime';
import sharp from 'sharp';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_PLAN_PERMISSIONS, createPlan, uniqueName } from '@helix/server/testing/factories';
import { startMailSink } from '../../test/mail-sink.ts';
import { bearer, createModelHarness, customer, type Caller, type ModelHarness } from '../../test/models.ts';

/**
 * A school's logo in its e-mails (issue 18 §6): the real app, worker (image checks and e-mail) and SMTP
 * server. The logo arrives as the message's own PNG part that the HTML shows by its Content-ID, so
 * Outlook (no WebP) and clients that hold back remote images show it; a logo that cannot be read
 * leaves the school's name in text, and the e-mail still goes.
 */

let h: ModelHarness;
let mail: Awaited<ReturnType<typeof startMailSink>>;

beforeAll(async () => {
  mail = await startMailSink();
  h = await createModelHarness({ SMTP_URL: mail.url }, ['images', 'email']);
});
afterAll(async () => {
  await h?.close();
  await mail?.stop();
});

const school = async (name: string) => {
  const plan = await createPlan(h.db, {
    customBranding: true,
    viewLimit: 1000,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  const owner = await customer(h, { plan, name });
  await h.db.tenantSubscription.update({ where: { tenantId: owner.tenant.id }, data: { userLimit: 100 } });
  return owner;
};

/** Invites a new address from `owner`'s school and reads the e-mail it got, parsed as a mail client does. */
async function inviteAndRead(owner: Caller) {
  const address = `${uniqueName('logo')}@example.test`;
  const res = await request(h.app)
    .post(`${owner.base}/user/invite`)
    .set(bearer(owner.token))
    .send({ name: 'Ana Pupil', email: address });
  expect(res.status).toBe(201);
  return readMailTo(address);
}

async function readMailTo(address: string) {
  const deadline = Date.now() + 90_000; // a liveness bound, not a speed check
  for (;;) {
    const found = mail.mails.find((m) => m.to.includes(address));
    if (found) return { raw: found.raw, parsed: await PostalMime.parse(found.raw) };
    if (Date.now() > deadline) throw new Error(`no e-mail to ${address}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("a school's logo in its e-mails", () => {
  it('is an inline PNG part that the HTML shows by its Content-ID, in the invitation and the password reset', async () => {
    const owner = await school('Logo School');
    // A wide logo with transparency, uploaded as the branding page does (stored as WebP).
    const logo = await sharp({
      create: { width: 900, height: 300, channels: 4, background: { r: 10, g: 125, b: 50, alpha: 0.5 } },
    })
      .png()
      .toBuffer();
    const upload = await request(h.app)
      .post(`${owner.base}/tenant/update`)
      .set(bearer(owner.token))
      .field('customBrandName', uniqueName('logoschool'))
      .attach('brandLogo', logo, 'logo.png');
    expect(upload.status).toBe(200);
    expect(upload.body.brandLogo).toMatch(/\.webp$/);

    const { raw, parsed } = await inviteAndRead(owner);
    expect(raw).toMatch(/Content-Type: multipart\/related/i);
    const images = parsed.attachments.filter((a) => a.mimeType === 'image/png');
    expect(images).toHaveLength(1);
    const part = images[0]!;
    expect(part.disposition).toBe('inline');
    const cid = /^<(.+)>$/.exec(part.contentId ?? '')?.[1];
    expect(cid).toMatch(/^logo\.[0-9a-f]{20}@helix$/);
    expect(parsed.html).toContain(`<img src="cid:${cid}" alt="Logo School" width="120" height="40"`);
    // Never the stored WebP, nor any remote image.
    expect(parsed.html).not.toMatch(/\.webp|<img src="http/);
    // A real PNG, with its transparency, at twice the size it is shown at.
    const png = await sharp(Buffer.from(part.content as ArrayBuffer)).metadata();
    expect(png).toMatchObject({ format: 'png', width: 240, height: 80, hasAlpha: true });

    // The password reset (another job, the same logo): the same part.
    const reset = await request(h.app)
      .post('/api/user/send_password_reset_token')
      .send({ email: owner.user.email });
    expect(reset.status).toBe(200);
    const again = await readMailTo(owner.user.email);
    const resetPart = again.parsed.attachments.find((a) => a.mimeType === 'image/png');
    expect(resetPart?.contentId).toBe(part.contentId);
    expect(again.parsed.html).toContain(`src="cid:${cid}"`);
  });

  it('leaves the school’s name in text, and the e-mail goes, when its logo is missing or unreadable', async () => {
    const corrupt = await school('Corrupt Logo School');
    const corruptKey = `images/logo-${uniqueName('corrupt')}.webp`;
    await h.storage.put(corruptKey, Buffer.from('RIFF....WEBPVP8 not really'), 'image/webp');
    const missing = await school('Missing Logo School');
    for (const [owner, key] of [
      [corrupt, corruptKey],
      [missing, `images/logo-${uniqueName('gone')}.webp`],
    ] as const) {
      await h.db.branding.upsert({
        where: { tenantId: owner.tenant.id },
        create: { tenantId: owner.tenant.id, brandLogo: key },
        update: { brandLogo: key },
      });
      const { parsed } = await inviteAndRead(owner);
      expect(parsed.attachments).toEqual([]);
      expect(parsed.html).not.toContain('<img');
      expect(parsed.html).toContain(`font-weight:bold;color:#222222">${owner.tenant.name}</span>`);
    }
  });
});
