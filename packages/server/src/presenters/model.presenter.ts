import type { ModelView, TopTenant } from '@helix/shared/schemas/model';
import type { Model } from '../db.ts';
import { imageUrl } from './image-url.ts';
import { modelAbilities } from '../models/model.policy.ts';
import type { PolicyActor } from '../sessions/session.service.ts';

export type ModelRecord = Model & { restrictedTenants: { tenantId: number }[] };

export interface ModelStats {
  viewCount: number;
  /** Platform admins: every tenant's top five; a customer asking for statistics: itself only. */
  topTenants?: TopTenant[];
  viewsByDay?: { day: string; views: number }[];
}

/** The only shape in which a model leaves the API (MODELS-API.md), with what `actor` may do with it. */
export function presentModel(
  model: ModelRecord,
  actor: PolicyActor,
  options: { admin: boolean; stats: ModelStats },
): ModelView {
  return {
    id: model.id,
    name: model.name,
    urlModelName: model.urlModelName,
    url: `/api/files/models/${model.id}?v=${model.version}`,
    thumbnail: imageUrl(model.thumbnail),
    backgroundColor: model.backgroundColor,
    viewCount: options.stats.viewCount,
    createdAt: model.createdAt.toISOString(),
    updatedAt: model.updatedAt.toISOString(),
    isPublic: model.isPublic,
    restrictedTenants: options.admin
      ? model.restrictedTenants.map((t) => t.tenantId).sort((a, b) => a - b)
      : [],
    version: model.version,
    abilities: modelAbilities(actor, model),
    ...(options.admin || options.stats.topTenants !== undefined
      ? { topTenants: options.stats.topTenants ?? [], viewsByDay: options.stats.viewsByDay ?? [] }
      : {}),
  };
}
