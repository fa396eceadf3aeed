import type { EmbedFlag, LinkKind } from '@helix/shared';
import {
  type ModelSort,
  type ModelView,
  type TenantOption,
  type UserStats,
  type ViewsSummary,
} from '@helix/shared/schemas/model';
import { tenantApi, type FormRequestOptions, type RequestOptions } from '../api/client';
import { sendOrQueue } from '../offline/outbox';

/** A model as the API presents it (MODELS-API.md `presentModel`). */
export type Model = ModelView;
/** The caller's view allowance for the current billing period (non-admins). */
export type ModelViews = ViewsSummary;
export type Tenant = TenantOption;
export type { UserStats };

export interface ModelListing {
  models: Model[];
  views: ModelViews | null;
  users: UserStats[];
}

const asArray = <T>(value: unknown): T[] => (Array.isArray(value) ? (value as T[]) : []);

/** The answer of GET /model/all, tolerant of missing parts (an admin gets no `views`). */
export function toListing(answer: unknown): ModelListing {
  const body = (typeof answer === 'object' && answer !== null ? answer : {}) as Record<string, unknown>;
  const views = body.views;
  return {
    models: asArray<Model>(body.models),
    views: typeof views === 'object' && views !== null ? (views as ModelViews) : null,
    users: asArray<UserStats>(body.users),
  };
}

/** The grid and the statistics page show their own 'Failed to …' message, so the server toast is off. */
export async function fetchModels(
  query: {
    search?: string;
    sort?: ModelSort;
    /** A platform admin's top tenants and views per day. */ stats?: boolean;
  },
  signal?: AbortSignal,
): Promise<ModelListing> {
  const answer = await tenantApi.get<unknown>(modelListPath(query), { signal, toast: false });
  return toListing(answer);
}

/** GET /model/all's tenant path for a query (the browser's call, and a server render's `ctx.get`). */
export function modelListPath(query: { search?: string; sort?: ModelSort; stats?: boolean }): string {
  const params = new URLSearchParams();
  if (query.search) params.set('search', query.search);
  if (query.sort) params.set('sort', query.sort);
  if (query.stats) params.set('stats', 'true');
  const qs = params.toString();
  return `/model/all${qs ? `?${qs}` : ''}`;
}

/** Add (id 0) or update; multipart because of the thumbnail and the .glb. */
export const saveModel = (form: FormData, options?: FormRequestOptions) =>
  tenantApi.postForm<Model>('/model/update', form, options);

/** The details of a model (no new file or thumbnail) through the outbox, based on its version. */
export const saveModelDetailsOrQueue = (
  model: Model,
  details: { name: string; urlModelName: string; isPublic: boolean; restrictedTenants: number[] },
) =>
  sendOrQueue<Model>({
    kind: 'model.update',
    target: `model:${model.id}`,
    label: `Edit model ${model.name}`,
    path: '/model/update',
    body: {
      id: model.id,
      name: details.name.trim(),
      urlModelName: details.urlModelName.trim(),
      isPublic: details.isPublic,
      restrictedTenants: details.isPublic ? [] : details.restrictedTenants,
    },
    baseVersion: model.version,
  });

export const deleteModel = (id: number) => tenantApi.post<{ message?: string }>('/model/delete', { id });

/**
 * `expiresAt`: an ISO date-time after which the link stops working, or null for none; `allowedHosts`:
 * the sites whose pages may show it (none: any site).
 */
export const createEmbedToken = (
  id: number,
  settings: readonly EmbedFlag[],
  expiresAt: string | null = null,
  transparentBackground = false,
  kind?: LinkKind,
  allowedHosts: readonly string[] = [],
) =>
  tenantApi.post<{ token: string }>('/model/embed', {
    id,
    settings,
    expiresAt,
    ...(kind ? { kind } : {}),
    ...(allowedHosts.length > 0 ? { allowedHosts } : {}),
    ...(transparentBackground ? { transparentBackground: true } : {}),
  });

/** `toast: false` when the caller has its own answer to a failure (a pinned model's kept copy). */
export const fetchViewerUrl = (
  id: number,
  signal?: AbortSignal,
  options: Omit<RequestOptions, 'signal'> = {},
) => tenantApi.post<{ url: string }>('/model/viewer-url', { id }, { ...options, signal });

/** Every customer tenant, or (`ids`: "3,7,12", at most 100) only those. */
export const fetchTenants = (options?: RequestOptions, ids?: string) =>
  tenantApi
    .get<Tenant[]>(ids ? `/tenant/getAllTenants?ids=${ids}` : '/tenant/getAllTenants', options)
    .then((list) => asArray<Tenant>(list));
