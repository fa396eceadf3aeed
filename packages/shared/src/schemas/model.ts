import { z } from 'zod';
import { ModelAbilities } from './abilities.ts';
import { EMBED_FLAGS, LINK_KINDS, VIEWER_MODES } from '../embed.ts';
import { MSG } from '../messages.ts';
import { BrandingView } from './tenant.ts';
import { opaqueText, optionalText, requiredText } from './text.ts';
import { MAX_ID } from './ids.ts';
import { EmbedAllowedHosts, EmbedHostContext } from './embed-hosts.ts';

/**
 * Request schemas of the models area (administration-content 4, 5, 7). The API validates with them and
 * the web forms take their rules and messages from them. The model form travels as multipart/form-data
 * (every value a string), so booleans, ids and the tenant list also accept their string forms.
 */

/** Hyphen-separated lowercase words: 'heart-anatomy', 'cell2'. */
export const URL_MODEL_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export const MODEL_LIMITS = {
  name: 100,
  urlModelName: 100,
  search: 100,
  restrictedTenants: 1000,
  /** A thumbnail sent as a data URL (a file of at most 1 MB is ~1.4 MB of base64). */
  thumbnailDataUrl: 1_500_000,
  token: 200,
} as const;

export const MODEL_SORTS = ['name-Asc', 'name-Desc', 'createdAt-Asc', 'createdAt-Desc'] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];
export const DEFAULT_MODEL_SORT: ModelSort = 'createdAt-Asc';

/** A database id: a number or its decimal string (multipart). */
const id = (min: 0 | 1) =>
  z.union([
    z.number().int().min(min).max(MAX_ID),
    z
      .string()
      .regex(/^\d{1,10}$/)
      .transform(Number)
      .pipe(z.number().int().min(min).max(MAX_ID)),
  ]);

/** A boolean, or 'true'/'false'/'1'/'0' (multipart). */
const boolish = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1'),
]);

const parseJsonList = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  if (trimmed === '') return [];
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return value; // reported by the array schema
  }
};

/** Tenant ids: an array, or its JSON text (multipart). Duplicates are dropped. */
const tenantIds = z.preprocess(
  parseJsonList,
  z
    .array(id(1))
    .max(MODEL_LIMITS.restrictedTenants)
    .transform((ids) => [...new Set(ids)]),
);

export const MODEL_COLOUR_PATTERN = /^#[0-9a-fA-F]{6}$/;

/**
 * POST /model/update (multipart/form-data, or JSON without files). id 0 adds, any other id updates.
 * `thumbnail` as a string: a data URL (a new image), 'null' or absent (keep the current one), '' (remove
 * it); as a file part it is a new image. `file` (the .glb) is a file part, required when adding.
 * `version`, when given, is the version the edit was based on: a newer stored version answers 409.
 */
export const ModelUpdate = z.strictObject({
  id: id(0).default(0),
  name: requiredText(MSG.modelNameRequired, MODEL_LIMITS.name),
  urlModelName: requiredText(MSG.modelUrlNameRequired, MODEL_LIMITS.urlModelName).regex(
    URL_MODEL_NAME_PATTERN,
    { error: MSG.modelUrlNameRule },
  ),
  /** Absent: public when adding, unchanged when updating. */
  isPublic: boolish.optional(),
  /** Absent: none when adding, unchanged when updating. */
  restrictedTenants: tenantIds.optional(),
  thumbnail: z.string().max(MODEL_LIMITS.thumbnailDataUrl, { error: MSG.fileOver1mb }).nullable().optional(),
  backgroundColor: z
    .union([z.literal(''), z.string().regex(MODEL_COLOUR_PATTERN, { error: MSG.modelColourInvalid })])
    .nullable()
    .optional(),
  version: id(1).optional(),
});
export type ModelUpdate = z.input<typeof ModelUpdate>;
export type ModelUpdateInput = z.output<typeof ModelUpdate>;

const flag = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional();

/**
 * GET /model/all?search=&sort=&stats=&users= (docs/lists-at-scale.md). Both extras are opt-in so the
 * grid's call stays cheap: `stats=true` adds a platform admin's per-model top tenants and views per
 * day (the Statistics page's cards; without it they are empty), `users=true` (with User.listing.view)
 * every user's views per model (`users`; nothing in the web asks for it any more, the Statistics
 * page reads GET /stats/users).
 */
export const ModelListQuery = z.strictObject({
  search: optionalText(MODEL_LIMITS.search),
  sort: z.enum(MODEL_SORTS).default(DEFAULT_MODEL_SORT),
  stats: flag,
  users: flag,
});
export type ModelListQuery = z.input<typeof ModelListQuery>;

/** POST /model/delete, POST /model/viewer-url */
export const ModelIdRequest = z.strictObject({ id: id(1) });
export type ModelIdRequest = z.input<typeof ModelIdRequest>;

/**
 * POST /model/embed: the enabled viewer features (at most the 15 flags, each once) and an optional
 * expiry (an ISO date-time in the future; absent or null: the link does not expire).
 */
export const EmbedCreate = z
  .strictObject({
    id: id(1),
    settings: z
      .array(z.enum(EMBED_FLAGS))
      .max(EMBED_FLAGS.length)
      .refine((flags) => new Set(flags).size === flags.length, { error: 'Each feature may be listed once.' }),
    expiresAt: z.iso.datetime({ offset: true }).nullable().optional(),
    /**
     * No backdrop at all: the host page shows around the model (plan transparentBackgroundWebEmbeding
     * and Background.transparent, checked by the server). Exclusive with background and background_color.
     */
    transparentBackground: z.boolean().optional(),
    /** The page the link is made for (listed on the Links page); the token opens both either way. */
    kind: z.enum(LINK_KINDS).optional(),
    /** The sites whose pages may show the link (docs/links.md); empty or absent: any site. */
    allowedHosts: EmbedAllowedHosts.optional(),
  })
  .refine(
    (v) =>
      !v.transparentBackground || !v.settings.some((f) => f === 'background' || f === 'background_color'),
    { error: MSG.transparentExclusive, path: ['transparentBackground'] },
  );
export type EmbedCreate = z.input<typeof EmbedCreate>;

/**
 * The shape of a viewer token (`vw1.<payload>.<signature>`, minted by the server with the embed
 * detail; packages/server/src/views/viewer-token.ts), wide enough for an old page's random id too.
 */
export const VIEWER_TOKEN_PATTERN = /^[A-Za-z0-9_.-]{16,400}$/;

/** POST /api/model/embed/detail (base, no login). */
export const EmbedDetailRequest = z.strictObject({
  token: opaqueText(MODEL_LIMITS.token),
  /** The viewer token the page kept from its last load of this link (VIEWER_TOKEN_PATTERN), if any. */
  viewer: z.string().regex(VIEWER_TOKEN_PATTERN).optional(),
  /** Where the page is shown (a link limited to some sites is counted only inside them). */
  host: EmbedHostContext.optional(),
});
export type EmbedDetailRequest = z.input<typeof EmbedDetailRequest>;

/**
 * The answer of POST /api/model/embed/detail (the share and embed pages): the server presents exactly
 * this and the pages parse it with it. `url` is the viewer frame's address (embedding mode).
 */
export const EmbedDetail = z.strictObject({
  success: z.literal(true),
  message: z.string(),
  error: z.null(),
  user: z.strictObject({ name: z.string() }),
  branding: BrandingView,
  modelId: z.number().int(),
  modelName: z.string(),
  settings: z.array(z.enum(EMBED_FLAGS)),
  url: z.string(),
  /**
   * This page load's viewer token, minted and signed by the server for the link and the client's
   * address (already in `url`): the page keeps it and sends it back on its next load of the link.
   */
  viewer: z.string(),
  /** The page and its frame have no backdrop (the link asks for it and the plan includes it now). */
  transparentBackground: z.boolean(),
  /** The link asks for a transparent background but the plan no longer includes it: the tenant's colour is used. */
  transparentFallback: z.boolean(),
});
export type EmbedDetail = z.output<typeof EmbedDetail>;

/**
 * GET /api/viewer/model: what the viewer host sends on every load. `model` is a urlModelName, so
 * anything else (control characters above all) is a 400 before it reaches a query.
 */
export const ViewerModelQuery = z.strictObject({
  model: z
    .string()
    .min(1)
    .max(MODEL_LIMITS.urlModelName, { error: MSG.tooLong(MODEL_LIMITS.urlModelName) })
    .regex(URL_MODEL_NAME_PATTERN, { error: MSG.modelUrlNameRule }),
  /** An embed token or a viewer ticket. */
  subscription: opaqueText(1000).pipe(z.string().min(1)),
  currentmode: z.enum(VIEWER_MODES),
  version: opaqueText(20).optional(),
  /**
   * The share or embed page's viewer token (VIEWER_TOKEN_PATTERN); ignored in standard mode. Anything
   * of that shape is accepted (an old page's own random id too) and only a valid token is honoured.
   */
  viewer: z.string().regex(VIEWER_TOKEN_PATTERN).optional(),
  /**
   * The viewer token the viewer kept from its last load of this link (embedding mode): when it is still
   * ours for the link and the client's network, its viewer is kept (a reload stays one viewer) instead
   * of the page's fresh `viewer`.
   */
  kept: z.string().regex(VIEWER_TOKEN_PATTERN).optional(),
  /**
   * The viewer frame's `location.ancestorOrigins`, space-separated, parent first (embedding mode, where
   * the browser has them): a link limited to some sites counts only when every page around it is ours
   * or one of them.
   */
  ancestors: z.string().max(4000).optional(),
});
export type ViewerModelQuery = z.input<typeof ViewerModelQuery>;

// ---- answers (zod schemas: the API reference is generated from them; types are their outputs) ----

export const TopTenant = z.object({
  tenant_id: z.number().int(),
  tenant_name: z.string(),
  tenant_views: z.number().int(),
});
export type TopTenant = z.output<typeof TopTenant>;

export const ModelView = z.object({
  id: z.number().int(),
  name: z.string(),
  urlModelName: z.string(),
  /** /api/files/models/<id>?v=<version>: the file itself needs a signed URL (the viewer gets one). */
  url: z.string(),
  thumbnail: z.string().nullable(),
  backgroundColor: z.string().nullable(),
  viewCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
  isPublic: z.boolean(),
  /** Admins only; [] for others. */
  restrictedTenants: z.array(z.number().int()),
  version: z.number().int(),
  /** What the caller may do with this model (view, edit, embed, delete). */
  abilities: ModelAbilities,
  /** Platform admins only (statistics). */
  topTenants: z.array(TopTenant).optional(),
  viewsByDay: z.array(z.object({ day: z.string(), views: z.number().int() })).optional(),
});
export type ModelView = z.output<typeof ModelView>;

export const ViewsSummary = z.object({
  viewCount: z.number().int(),
  /** 0 = unlimited. */
  viewLimit: z.number().int(),
  additionalViews: z.number().int(),
  additionalViewsUsed: z.number().int(),
  /** Cents per 1,000 views. */
  additionalViewsPrice: z.number().int(),
  additionalViewsValidation: z.boolean(),
  /**
   * Views served past the allowance (viewLimit + additionalViews) before loads are refused, when
   * additionalViewsValidation is on (VIEW_GRACE_PERCENT of viewLimit); 0 when unlimited.
   */
  graceViews: z.number().int(),
  /** The period's count at which loads are refused; null when they never are (unlimited, or validation off). */
  refuseAt: z.number().int().nullable(),
  /** The billing period the counts are for (ISO dates). */
  periodStart: z.string(),
  periodEnd: z.string(),
});
export type ViewsSummary = z.output<typeof ViewsSummary>;

export const UserModelStats = z.object({
  medicalModelId: z.number().int(),
  modelName: z.string(),
  viewCount: z.number().int(),
});
export type UserModelStats = z.output<typeof UserModelStats>;

export const UserStats = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  models: z.array(UserModelStats),
});
export type UserStats = z.output<typeof UserStats>;

/** GET /model/all */
export const ModelListResponse = z.object({
  models: z.array(ModelView),
  /** Non-admins only (null for platform admins). */
  views: ViewsSummary.nullable(),
  /** With User.listing.view; [] without. */
  users: z.array(UserStats),
});
export type ModelListResponse = z.output<typeof ModelListResponse>;

export const TenantOption = z.object({ id: z.number().int(), name: z.string(), domainPrefix: z.string() });
export type TenantOption = z.output<typeof TenantOption>;

export const ViewerBranding = z.object({
  backgroundColor: z.string(),
  primaryColor: z.string(),
  /** Absolute URLs of the tenant's background and loading images, or null. */
  modelBgLogo: z.string().nullable(),
  modelLoadingLogo: z.string().nullable(),
});
export type ViewerBranding = z.output<typeof ViewerBranding>;

/** GET /api/viewer/model */
export const ViewerModel = z.object({
  name: z.string(),
  glbUrl: z.string(),
  settings: z.array(z.enum(EMBED_FLAGS)),
  branding: ViewerBranding,
  /** Render with no backdrop (embedding mode, the link asks for it and the plan includes it now). */
  transparentBackground: z.boolean(),
  /** The link asks for a transparent background the plan no longer includes: background_color is used instead. */
  transparentFallback: z.boolean(),
  /**
   * The viewer may offer its Record control (standard mode only: the ticket's user holds Screen.record
   * and the plan has screenRecord, checked at this load). Share and embed loads are always false.
   */
  record: z.boolean(),
  /**
   * Share and embed loads: the viewer token this load was counted under (renewed when it was kept),
   * which the viewer keeps and sends back as `kept` on its next load of the link.
   */
  viewer: z.string().optional(),
});
export type ViewerModel = z.output<typeof ViewerModel>;

/** POST /model/embed: the new link's token (the share and embed addresses are built from it). */
export const EmbedCreated = z.object({ token: z.string() });
export type EmbedCreated = z.output<typeof EmbedCreated>;
/** POST /model/viewer-url: the viewer frame's address with a short-lived ticket. */
export const ViewerUrl = z.object({ url: z.string() });
export type ViewerUrl = z.output<typeof ViewerUrl>;

/** GET /api/viewer/record: asked when the user starts a recording (the server decides again). */
export const ViewerRecordQuery = z.strictObject({
  model: z.string().min(1).max(MODEL_LIMITS.urlModelName).regex(URL_MODEL_NAME_PATTERN),
  subscription: opaqueText(1000).pipe(z.string().min(1)),
});
export type ViewerRecordQuery = z.input<typeof ViewerRecordQuery>;

export const ViewerRecordGrant = z.object({
  record: z.literal(true),
  /** The longest recording allowed (RECORDING_MAX_SECONDS). */
  maxSeconds: z.number().int(),
});
export type ViewerRecordGrant = z.output<typeof ViewerRecordGrant>;
