import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Db } from '@helix/server/db';
import { LocalStorage } from '@helix/server/storage/local-storage';
import { randomToken, sha256 } from '@helix/server/tokens';

export interface EmbedFixture {
  token: string;
  modelId: number;
  tenantId: number;
  urlModelName: string;
  /** The API's STORAGE_DIR (holds the model's file). */
  storageDir: string;
}

/**
 * One customer tenant on an unlimited plan with embedding, one model with a stored file, one embed
 * link: what embed page loads need (the fault cases' paced loads, apps/api/bench/embed-path.bench.ts).
 * The storage folder is the caller's to remove.
 */
export async function createEmbedFixture(db: Db): Promise<EmbedFixture> {
  const storageDir = await mkdtemp(path.join(tmpdir(), 'helix-embed-storage-'));
  const plan = await db.plan.create({
    data: {
      id: 1,
      name: 'Embed',
      description: 'Embed plan',
      family: 'enterprise',
      planType: 'MONTHLY',
      displayPlantype: 'MONTHLY',
      price: '1',
      firstTierPrice: '1',
      userLimit: 5,
      viewLimit: 0,
      modelEmbed: true,
    },
  });
  const tenant = await db.tenant.create({
    data: {
      domainPrefix: 'embed',
      name: 'Embed tenant',
      branding: { create: {} },
      subscription: { create: { planId: plan.id, status: 'active', activePayment: true } },
    },
  });
  const user = await db.user.create({
    data: {
      tenantId: tenant.id,
      name: 'Embed owner',
      userName: 'embed',
      email: 'embed@example.test',
      isOwner: true,
    },
  });
  await new LocalStorage(storageDir).put('models/embed.glb', Buffer.from('glTF'), 'model/gltf-binary');
  const model = await db.model.create({
    data: { name: 'Embed model', urlModelName: 'embed-model', fileKey: 'models/embed.glb' },
  });
  const token = randomToken();
  await db.embedToken.create({
    data: {
      tokenHash: sha256(token),
      modelId: model.id,
      tenantId: tenant.id,
      createdById: user.id,
      settings: ['info'],
    },
  });
  return { token, modelId: model.id, tenantId: tenant.id, urlModelName: model.urlModelName, storageDir };
}

/** Views of the model in PostgreSQL (what the flush and the direct path wrote). */
export async function recordedViews(db: Db, modelId: number): Promise<number> {
  const sum = await db.modelViewDaily.aggregate({ where: { modelId }, _sum: { count: true } });
  return sum._sum.count ?? 0;
}
