import { randomUUID } from 'node:crypto';
import Papa from 'papaparse';
import PostalMime from 'postal-mime';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { JOBS, MSG, type UsageAlertPayload } from '@helix/shared';
import { CardCheckoutView } from '@helix/shared/schemas/billing';
import { createMailTransport } from '@helix/server/mail/transport';
import { flushViews } from '@helix/server/views/flush-views';
import { billingPeriod } from '@helix/server/views/allowance';
import { periodViewCount, recordView } from '@helix/server/views/record-view';
import { sendUsageAlert } from '@helix/server/views/usage-alert.command';
import { viewDepsOf } from '@helix/server/views/views-summary';
import {
  createPlan,
  createTenant,
  createUser,
  CUSTOMER_PLAN_PERMISSIONS,
} from '@helix/server/testing/factories';
import { randomToken, sha256 } from '@helix/server/tokens';
import {
  customer as billingCustomer,
  INDIVIDUAL_MONTHLY,
  advanceClock,
  storedSubscription,
  useBillingBed,
  waitFor,
} from '../../test/billing.ts';
import { startMailSink } from '../../test/mail-sink.ts';
import { bearer, platformAdmin, sessionFor } from '../../test/models.ts';

/**
 * Soft limits and usage you can trust (issue 17, points 4 and 5): the 80% / 100% e-mails once each per
 * period, the grace band, the period reset at Stripe's boundary (a test clock), and the owner's
 * statistics, the platform's and the export agreeing with the billed count.
 */
const bed = useBillingBed();

const usageJobs = async (tenantId: number) =>
  (await bed.h.deps.queue.queueOf('email').getJobs(['waiting', 'delayed', 'completed', 'failed', 'active']))
    .filter((j) => j.name === JOBS.usageAlert.name && j.data.tenantId === tenantId)
    .map((j) => ({ id: j.id, data: j.data as UsageAlertPayload }));

async function limitedSchool(viewLimit: number) {
  const plan = await createPlan(bed.h.db, {
    modelEmbed: true,
    viewLimit,
    additionalViewsPrice: 500,
    permissions: CUSTOMER_PLAN_PERMISSIONS,
  });
  const tenant = await createTenant(bed.h.db, { plan });
  await bed.h.db.branding.update({
    where: { tenantId: tenant.id },
    data: { additionalViewsValidation: true },
  });
  const owner = await createUser(bed.h.db, { tenant, roles: ['Admin'], isOwner: true });
  const models = await Promise.all(
    ['a', 'b'].map((n) =>
      bed.h.db.model.create({
        data: {
          name: `Usage ${n} ${tenant.id}`,
          urlModelName: `usage-${n}-${tenant.id}`,
          fileKey: `models/usage-${n}.glb`,
          isPublic: true,
        },
      }),
    ),
  );
  const token = randomToken();
  const link = await bed.h.db.embedToken.create({
    data: {
      tokenHash: sha256(token),
      modelId: models[0]!.id,
      tenantId: tenant.id,
      createdById: owner.id,
      settings: ['info'],
    },
  });
  const context = await bed.h.db.tenant.findUniqueOrThrow({
    where: { id: tenant.id },
    include: { subscription: { include: { plan: true } }, branding: true },
  });
  return { tenant, owner, models, token, link, context, session: await sessionFor(bed.h, owner) };
}

describe('80% and 100% alerts, the grace band', () => {
  it('concurrent loads send one e-mail per threshold; past the band the load is refused', async () => {
    const s = await limitedSchool(10);
    const deps = viewDepsOf(bed.h.deps);
    // 11 distinct viewers at once: 10 (the allowance) + a grace band of 10% of 10 = 11 served.
    const loads = await Promise.allSettled(
      Array.from({ length: 11 }, (_, i) =>
        recordView(deps, s.context, {
          modelId: s.models[i % 2]!.id,
          viewerKey: i % 2 ? `u:${s.owner.id}` : `e:${s.link.id}`,
          source: i % 2 ? 'portal' : 'embed',
          viewer: randomUUID(),
        }),
      ),
    );
    expect(loads.filter((l) => l.status === 'fulfilled')).toHaveLength(11);
    // One more viewer, through the embed's real load: refused past the band.
    const past = await request(bed.app).get('/api/viewer/model').query({
      model: s.models[0]!.urlModelName,
      subscription: s.token,
      currentmode: 'embedding',
      viewer: randomUUID(),
    });
    expect(past.status).toBe(429);
    expect(past.body.message).toBe(MSG.viewLimitReached);

    const jobs = await usageJobs(s.tenant.id);
    expect(jobs.map((j) => j.data.threshold).sort()).toEqual([100, 80]);

    // The job runs twice per threshold at once (a retry racing a duplicate after the Redis gate was
    // lost): the UsageAlert row lets one e-mail out per threshold.
    const sink = await startMailSink();
    const transport = createMailTransport(sink.url);
    try {
      const alertDeps = {
        db: bed.h.db,
        redis: bed.h.redis,
        prefix: bed.h.config.REDIS_PREFIX,
        transport,
        from: 'helix@example.test',
        publicUrl: bed.h.config.PUBLIC_URL,
        viewGracePercent: bed.h.config.VIEW_GRACE_PERCENT,
      };
      const results = await Promise.all([...jobs, ...jobs].map((j) => sendUsageAlert(alertDeps, j.data)));
      expect(results.filter((r) => r.sent)).toHaveLength(2);
      expect(sink.mails).toHaveLength(2);
      expect(sink.mails.every((m) => m.to.includes(s.owner.email))).toBe(true);
      const raws = (
        await Promise.all(sink.mails.map(async (m) => (await PostalMime.parse(m.raw)).text))
      ).join('\n');
      expect(raws).toContain('80%');
      expect(raws).toContain('11 of 10');
      expect(raws).toContain('/user/home?buy-views=1');
      // Again later: nothing more.
      for (const j of jobs) expect((await sendUsageAlert(alertDeps, j.data)).sent).toBe(false);
      expect(sink.mails).toHaveLength(2);
    } finally {
      transport.close();
      await sink.stop();
    }

    // The portal's figures: used / allowance / grace / where loads stop, and the period's end.
    const summary = await request(bed.app)
      .get(`/api/t/${s.tenant.domainPrefix}/views/summary`)
      .set(bearer(s.session));
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({ viewCount: 11, viewLimit: 10, graceViews: 1, refuseAt: 11 });
    expect(Date.parse(summary.body.periodEnd)).toBeGreaterThan(Date.now());
  });
});

describe('usage you can trust', () => {
  it("the owner's statistics, the platform's and the export agree with the billed count", async () => {
    const s = await limitedSchool(1000);
    const deps = viewDepsOf(bed.h.deps);
    // Every third load in the portal (either model), the others through the embed link (its model).
    const load = (i: number) =>
      recordView(deps, s.context, {
        modelId: i % 3 === 0 ? s.models[i % 2]!.id : s.models[0]!.id,
        viewerKey: i % 3 === 0 ? `u:${s.owner.id}` : `e:${s.link.id}`,
        source: i % 3 === 0 ? 'portal' : 'embed',
        viewer: randomUUID(),
      });
    // Some views in PostgreSQL, some still in Redis: every reader must add both.
    for (let i = 0; i < 17; i += 1) await load(i);
    await flushViews(deps);
    for (let i = 17; i < 30; i += 1) await load(i);

    const tenant = `/api/t/${s.tenant.domainPrefix}`;
    const billed = await periodViewCount(deps, s.tenant.id, billingPeriod(s.context.subscription));
    expect(billed).toBe(30);

    const owner = await request(bed.app).get(`${tenant}/model/all?users=true`).set(bearer(s.session));
    expect(owner.status).toBe(200);
    expect(owner.body.views.viewCount).toBe(billed);
    const ownerModels = owner.body.models.filter((m: { id: number }) => s.models.some((x) => x.id === m.id));
    expect(ownerModels.reduce((n: number, m: { viewCount: number }) => n + m.viewCount, 0)).toBe(billed);
    const ownerUsers = owner.body.users.flatMap((u: { models: { viewCount: number }[] }) => u.models);
    expect(ownerUsers.reduce((n: number, m: { viewCount: number }) => n + m.viewCount, 0)).toBe(billed);

    const admin = await platformAdmin(bed.h);
    const platform = await request(bed.app)
      .get(`${admin.base}/model/all?stats=true`)
      .set(bearer(admin.token));
    expect(platform.status).toBe(200);
    const tenantViews = platform.body.models
      .filter((m: { id: number }) => s.models.some((x) => x.id === m.id))
      .flatMap((m: { topTenants: { tenant_id: number; tenant_views: number }[] }) => m.topTenants)
      .filter((t: { tenant_id: number }) => t.tenant_id === s.tenant.id)
      .reduce((n: number, t: { tenant_views: number }) => n + t.tenant_views, 0);
    expect(tenantViews).toBe(billed);

    // The owner's statistics (/stats) agree: Top Tenants is the school itself with the same views,
    // and the 30-day chart adds up to them; no other tenant appears.
    const ownStats = await request(bed.app).get(`${tenant}/model/all?stats=true`).set(bearer(s.session));
    expect(ownStats.status).toBe(200);
    const mine = ownStats.body.models.filter((m: { id: number }) => s.models.some((x) => x.id === m.id));
    for (const m of mine as {
      viewCount: number;
      topTenants: { tenant_id: number; tenant_views: number }[];
      viewsByDay: { views: number }[];
    }[]) {
      expect(m.topTenants).toEqual(
        m.viewCount > 0
          ? [expect.objectContaining({ tenant_id: s.tenant.id, tenant_views: m.viewCount })]
          : [],
      );
      expect(m.viewsByDay.reduce((n, d) => n + d.views, 0)).toBe(m.viewCount);
    }
    expect(
      ownStats.body.models.every((m: { topTenants: { tenant_id: number }[] }) =>
        m.topTenants.every((t) => t.tenant_id === s.tenant.id),
      ),
    ).toBe(true);

    const csv = await request(bed.app).get(`${tenant}/views/export`).set(bearer(s.session));
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(
      /attachment; filename="?views-\d{4}-\d{2}-\d{2}\.csv"?/,
    );
    const rows = Papa.parse<Record<string, string>>(csv.text, { header: true, skipEmptyLines: true }).data;
    const sum = (kind: string) =>
      rows.filter((r) => r.kind === kind).reduce((n, r) => n + Number(r.views), 0);
    expect(sum('model')).toBe(billed);
    const embedViews = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 3 !== 0).length;
    expect(rows.filter((r) => r.kind === 'link')).toEqual([
      expect.objectContaining({
        link_id: String(s.link.id),
        link_created_by: s.owner.email,
        views: String(embedViews),
      }),
    ]);
    // Another tenant's member cannot read this tenant's export (the path tenant must be the caller's).
    expect((await request(bed.app).get(`${tenant}/views/export`).set(bearer(admin.token))).status).toBe(404);
  });
});

describe('the period resets at the Stripe billing period boundary', () => {
  it('a test clock past the period end: the count starts at 0 and the alerts are armed again', async () => {
    const c = await billingCustomer(bed, { clock: true });
    await bed.h.db.tenantSubscription.upsert({
      where: { tenantId: c.tenant.id },
      update: { isTrialPassed: true },
      create: { tenantId: c.tenant.id, isTrialPassed: true },
    });
    const checkout = CardCheckoutView.parse(
      (await c.post('/subscription/payment-intent', { planId: INDIVIDUAL_MONTHLY })).body,
    );
    await bed.stripe.paymentIntents.confirm(checkout.paymentIntent.id, { payment_method: 'pm_card_visa' });
    const first = await waitFor(async () => {
      const sub = await storedSubscription(bed, c.tenant.id);
      return sub.status === 'active' && sub.currentPeriodStart && sub.currentPeriodEnd ? sub : null;
    }, 'the paid plan with its period');
    // A small allowance for this test's database (the seeded plan is only read by this file).
    await bed.h.db.plan.update({
      where: { id: INDIVIDUAL_MONTHLY },
      data: { viewLimit: 10, unlimitedViews: false },
    });
    const model = await bed.h.db.model.create({
      data: {
        name: 'Clock model',
        urlModelName: `clock-${c.tenant.id}`,
        fileKey: 'models/clock.glb',
        isPublic: true,
      },
    });
    const context = () =>
      bed.h.db.tenant.findUniqueOrThrow({
        where: { id: c.tenant.id },
        include: { subscription: { include: { plan: true } }, branding: true },
      });
    const deps = viewDepsOf(bed.h.deps);
    // Views happen at the clock's time (Stripe's period), not the machine's.
    const views = async (n: number, at: Date) => {
      const tenant = await context();
      for (let i = 0; i < n; i += 1) {
        await recordView(
          deps,
          tenant,
          { modelId: model.id, viewerKey: `u:${c.owner.id}`, source: 'portal', viewer: randomUUID() },
          at,
        );
      }
    };
    const inFirst = new Date(first.currentPeriodStart!.getTime() + 3600_000);
    await views(10, inFirst);
    const firstPeriod = billingPeriod(first, inFirst);
    expect(firstPeriod.start).toEqual(first.currentPeriodStart);
    expect(await periodViewCount(deps, c.tenant.id, firstPeriod)).toBe(10);
    await flushViews(deps);
    expect((await usageJobs(c.tenant.id)).map((j) => j.data.threshold).sort()).toEqual([100, 80]);

    await advanceClock(bed, c.clockId!, new Date(first.currentPeriodEnd!.getTime() + 2 * 3600_000));
    const second = await waitFor(async () => {
      const sub = await storedSubscription(bed, c.tenant.id);
      return sub.currentPeriodStart && sub.currentPeriodStart > first.currentPeriodStart! ? sub : null;
    }, 'the next period from Stripe');
    expect(second.currentPeriodStart).toEqual(first.currentPeriodEnd);
    const inSecond = new Date(second.currentPeriodStart!.getTime() + 3 * 3600_000);
    const secondPeriod = billingPeriod(second, inSecond);
    expect(await periodViewCount(deps, c.tenant.id, secondPeriod)).toBe(0);

    // 8 of 10 in the new period: the 80% alert again, for this period; no 100% one yet.
    await views(8, inSecond);
    expect(await periodViewCount(deps, c.tenant.id, secondPeriod)).toBe(8);
    const jobs = await usageJobs(c.tenant.id);
    const ofSecond = jobs.filter((j) => j.data.periodStart === second.currentPeriodStart!.toISOString());
    expect(ofSecond.map((j) => j.data.threshold)).toEqual([80]);
    expect(jobs).toHaveLength(3);
  }, 600_000);
});
