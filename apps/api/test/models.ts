import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { createLogger } from '@helix/server';
import type { QueueFamilyName } from '@helix/shared';
import type { Plan, Tenant, User } from '@helix/server/db';
import { createSession } from '@helix/server/sessions/session.service';
import { LocalStorage } from '@helix/server/storage/local-storage';
import type { Storage } from '@helix/server/storage/storage';
import { flushViews } from '@helix/server/views/flush-views';
import { createWorkerRuntime, type WorkerRuntime } from '@helix/worker/worker-runtime';
import { createHarness, type Harness } from './harness.ts';
import {
  CUSTOMER_PLAN_PERMISSIONS,
  createPlan,
  createTenant,
  createUser,
  seedRoles,
  uniqueName,
} from '@helix/server/testing/factories';

/**
 * The API harness plus what the models area needs: object storage in a temporary folder, the worker
 * running in-process on the same database client (validate-image answers the uploads; more families
 * when a test asks, e.g. 'email' with SMTP_URL set), and helpers for tenants, sessions, models, .glb
 * files and images.
 */
export interface ModelHarness<S extends Storage = LocalStorage> extends Harness {
  storage: S;
  worker: WorkerRuntime;
  /** Moves the buffered view counts to PostgreSQL (what the flush-views job does). */
  flush(): ReturnType<typeof flushViews>;
}

export async function createModelHarness(
  env: Record<string, string> = {},
  /** The worker's queue families to run (default: the image checks only; views are flushed by flush()). */
  families: readonly QueueFamilyName[] = ['images'],
): Promise<ModelHarness> {
  const dir = await mkdtemp(path.join(tmpdir(), 'helix-storage-'));
  const h = await createModelHarnessWith(new LocalStorage(dir), { STORAGE_DIR: dir, ...env }, families);
  const close = h.close;
  return Object.assign(h, {
    async close() {
      await close();
      await rm(dir, { recursive: true, force: true });
    },
  });
}

/** The same harness on the given storage (e.g. S3Storage against a real S3-compatible server). */
export async function createModelHarnessWith<S extends Storage>(
  storage: S,
  env: Record<string, string> = {},
  families: readonly QueueFamilyName[] = ['images'],
): Promise<ModelHarness<S>> {
  const h = await createHarness({ VIEWER_URL: 'http://viewer.test', ...env });
  h.deps.storage = storage;
  await seedRoles(h.db);
  const worker = createWorkerRuntime(h.config, createLogger('silent', 'worker-test'), { db: h.db, storage });
  await worker.start({ families });
  const models = { db: h.db, redis: h.redis, storage, prefix: h.config.REDIS_PREFIX };
  const close = h.close;
  return Object.assign(h, {
    storage,
    worker,
    flush: () => flushViews(models, { recover: true }),
    async close() {
      await worker.stop();
      await close();
    },
  });
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

export async function sessionFor(h: Harness, user: User): Promise<string> {
  return (await createSession(h.db, { userId: user.id, rememberMe: false })).token;
}

export interface Caller {
  tenant: Tenant;
  user: User;
  token: string;
  /** /api/t/<tenant> */
  base: string;
}

/** The platform tenant `services` (made once per database) and a platform admin in it. */
export async function platformAdmin(h: Harness): Promise<Caller> {
  const tenant =
    (await h.db.tenant.findUnique({ where: { domainPrefix: 'services' } })) ??
    (await h.db.tenant.create({
      data: { domainPrefix: 'services', name: 'Helix', isPlatform: true, branding: { create: {} } },
    }));
  const user = await createUser(h.db, { tenant, isAdmin: true, isOwner: false, roles: ['Admin'] });
  return { tenant, user, token: await sessionFor(h, user), base: `/api/t/${tenant.domainPrefix}` };
}

/** A customer tenant on `plan` (default: a plan with embedding and 1,000 views), with its owner. */
export async function customer(
  h: Harness,
  opts: {
    plan?: Plan | null;
    status?: 'active' | 'trialing' | 'none' | 'deactivated' | 'past_due';
    roles?: string[];
    name?: string;
  } = {},
): Promise<Caller & { plan: Plan | null }> {
  const plan =
    opts.plan === undefined
      ? await createPlan(h.db, { modelEmbed: true, viewLimit: 1000, permissions: CUSTOMER_PLAN_PERMISSIONS })
      : opts.plan;
  const tenant = await createTenant(h.db, {
    plan: plan ?? undefined,
    status: opts.status,
    name: opts.name ?? uniqueName('Tenant '),
  });
  const user = await createUser(h.db, { tenant, roles: opts.roles ?? ['Admin'] });
  return { tenant, user, plan, token: await sessionFor(h, user), base: `/api/t/${tenant.domainPrefix}` };
}

/** Another user of a tenant, with the given roles. */
export async function member(h: Harness, tenant: Tenant, roles: string[]): Promise<Caller> {
  const user = await createUser(h.db, { tenant, roles, isOwner: false });
  return { tenant, user, token: await sessionFor(h, user), base: `/api/t/${tenant.domainPrefix}` };
}

/** A minimal valid glTF binary: a JSON chunk with asset.version '2.0' and an empty BIN chunk. */
export function glb(json: object = { asset: { version: '2.0', generator: 'helix-test' } }): Buffer {
  let text = Buffer.from(JSON.stringify(json), 'utf8');
  const pad = (4 - (text.length % 4)) % 4;
  text = Buffer.concat([text, Buffer.alloc(pad, 0x20)]);
  const bin = Buffer.alloc(4);
  const total = 12 + 8 + text.length + 8 + bin.length;
  const out = Buffer.alloc(total);
  out.writeUInt32LE(0x46546c67, 0);
  out.writeUInt32LE(2, 4);
  out.writeUInt32LE(total, 8);
  out.writeUInt32LE(text.length, 12);
  out.writeUInt32LE(0x4e4f534a, 16);
  text.copy(out, 20);
  out.writeUInt32LE(bin.length, 20 + text.length);
  out.writeUInt32LE(0x004e4942, 24 + text.length);
  return out;
}

export const png = (width = 64, height = 48, colour = '#5f51fb') =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** A model row straight in the database, with a .glb in storage. */
export async function createModel(
  h: ModelHarness<Storage>,
  data: {
    name?: string;
    urlModelName?: string;
    isPublic?: boolean;
    restrictedTenants?: number[];
    createdAt?: Date;
  } = {},
) {
  const urlModelName = data.urlModelName ?? uniqueName('model-');
  const fileKey = `models/${urlModelName}.glb`;
  await h.storage.put(fileKey, glb(), 'model/gltf-binary');
  return h.db.model.create({
    data: {
      name: data.name ?? `Model ${urlModelName}`,
      urlModelName,
      isPublic: data.isPublic ?? true,
      fileKey,
      createdAt: data.createdAt,
      restrictedTenants: { create: (data.restrictedTenants ?? []).map((tenantId) => ({ tenantId })) },
    },
  });
}
