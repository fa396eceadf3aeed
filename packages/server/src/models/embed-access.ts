import { TtlCache } from '../cache/ttl-cache.ts';
import type { Config } from '../config.ts';
import type { Db, SubscriptionStatus } from '../db.ts';
import type { ServerDeps } from '../deps.ts';
import type { BrandingSource } from '../presenters/branding.presenter.ts';
import { sha256 } from '../tokens.ts';
import { hasActivePlan, type SubscriptionWithPlan, type TenantPlanContext } from '../views/allowance.ts';

/** Embed tokens are 32 random bytes in base64url: anything else is not worth a database query. */
export const EMBED_TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * An embed token with what the public embed path needs of its model, tenant, plan and maker. The token
 * itself is not part of it: only its sha256 is stored, and records are cached across requests.
 */
export interface EmbedRecord {
  id: number;
  settings: string[];
  /** The link was made with a transparent background (served only while the plan includes it). */
  transparentBackground: boolean;
  /** The sites whose pages may show the link (embed-host.policy.ts); empty: any site. */
  allowedHosts: string[];
  /** When the link stops opening (null: never); checked against the clock by embedAccess. */
  expiresAt: Date | null;
  creatorName: string;
  model: {
    id: number;
    name: string;
    urlModelName: string;
    version: number;
    fileKey: string | null;
    backgroundColor: string | null;
    thumbnail: string | null;
  };
  tenant: TenantPlanContext & {
    subscription:
      (SubscriptionWithPlan & { plan: { transparentBackgroundWebEmbeding: boolean } | null }) | null;
    domainPrefix: string;
    name: string;
    customBrandName: string | null;
    customDomainName: string | null;
    /** As stored: presentBrandingLook applies the defaults. */
    branding: (BrandingSource & { additionalViewsValidation: boolean }) | null;
  };
}

export type EmbedAccess =
  | { ok: true; embed: EmbedRecord }
  /** token: malformed, unknown, revoked or expired; model: deleted or not visible to the tenant any more; plan: not active. */
  | { ok: false; reason: 'token' | 'model' | 'plan' };

interface Row {
  id: number;
  settings: string[];
  transparentBackground: boolean;
  allowedHosts: string[] | null;
  revokedAt: Date | null;
  expiresAt: Date | null;
  creatorName: string;
  modelId: number;
  modelName: string;
  urlModelName: string;
  version: number;
  fileKey: string | null;
  modelBackground: string | null;
  thumbnail: string | null;
  modelDeleted: boolean;
  isPublic: boolean;
  listed: boolean;
  tenantId: number;
  domainPrefix: string;
  tenantName: string;
  isPlatform: boolean;
  customBrandName: string | null;
  customDomainName: string | null;
  subscriptionId: number | null;
  status: SubscriptionStatus | null;
  activePayment: boolean | null;
  trialEnd: Date | null;
  cancelAt: Date | null;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  additionalViews: number | null;
  planId: number | null;
  viewLimit: number | null;
  unlimitedViews: boolean | null;
  additionalViewsPrice: number | null;
  transparentBackgroundWebEmbeding: boolean | null;
  brandingId: number | null;
  primaryColor: string | null;
  textColor: string | null;
  backgroundColor: string | null;
  brandLogo: string | null;
  modelBgLogo: string | null;
  modelLoadingLogo: string | null;
  additionalViewsValidation: boolean | null;
}

/**
 * The public embed path runs on every page load of every site that embeds a model, so the token, its
 * model (and whether the tenant is listed on it), tenant, subscription, plan, branding and maker come
 * back in ONE query rather than one per relation.
 */
async function findEmbed(db: Db, tokenHash: string): Promise<Row | null> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT et."id", et."settings", et."transparentBackground", et."allowedHosts", et."revokedAt", et."expiresAt", u."name" AS "creatorName",
           m."id" AS "modelId", m."name" AS "modelName", m."urlModelName", m."version", m."fileKey",
           m."backgroundColor" AS "modelBackground", m."thumbnail", (m."deletedAt" IS NOT NULL) AS "modelDeleted", m."isPublic",
           EXISTS (SELECT 1 FROM "ModelTenantAccess" a WHERE a."modelId" = m."id" AND a."tenantId" = t."id") AS "listed",
           t."id" AS "tenantId", t."domainPrefix", t."name" AS "tenantName", t."isPlatform",
           t."customBrandName", t."customDomainName",
           s."id" AS "subscriptionId", s."status"::text AS "status", s."activePayment", s."trialEnd", s."cancelAt",
           s."currentPeriodStart", s."currentPeriodEnd", s."additionalViews",
           p."id" AS "planId", p."viewLimit", p."unlimitedViews", p."additionalViewsPrice",
           p."transparentBackgroundWebEmbeding",
           b."id" AS "brandingId", b."primaryColor", b."textColor", b."backgroundColor", b."brandLogo",
           b."modelBgLogo", b."modelLoadingLogo", b."additionalViewsValidation"
    FROM "EmbedToken" et
    JOIN "Model" m ON m."id" = et."modelId"
    JOIN "Tenant" t ON t."id" = et."tenantId"
    JOIN "User" u ON u."id" = et."createdById"
    LEFT JOIN "TenantSubscription" s ON s."tenantId" = t."id"
    LEFT JOIN "Plan" p ON p."id" = s."planId"
    LEFT JOIN "Branding" b ON b."tenantId" = t."id"
    WHERE et."tokenHash" = ${tokenHash}`;
  return rows[0] ?? null;
}

function recordOf(row: Row): EmbedRecord {
  return {
    id: row.id,
    settings: row.settings,
    transparentBackground: row.transparentBackground,
    allowedHosts: row.allowedHosts ?? [],
    expiresAt: row.expiresAt,
    creatorName: row.creatorName,
    model: {
      id: row.modelId,
      name: row.modelName,
      urlModelName: row.urlModelName,
      version: row.version,
      fileKey: row.fileKey,
      backgroundColor: row.modelBackground,
      thumbnail: row.thumbnail,
    },
    tenant: {
      id: row.tenantId,
      isPlatform: row.isPlatform,
      domainPrefix: row.domainPrefix,
      name: row.tenantName,
      customBrandName: row.customBrandName,
      customDomainName: row.customDomainName,
      subscription:
        row.subscriptionId === null
          ? null
          : {
              status: row.status ?? 'none',
              activePayment: row.activePayment ?? false,
              trialEnd: row.trialEnd,
              cancelAt: row.cancelAt,
              currentPeriodStart: row.currentPeriodStart,
              currentPeriodEnd: row.currentPeriodEnd,
              additionalViews: row.additionalViews ?? 0,
              plan:
                row.planId === null
                  ? null
                  : {
                      viewLimit: row.viewLimit ?? 0,
                      unlimitedViews: row.unlimitedViews ?? false,
                      additionalViewsPrice: row.additionalViewsPrice ?? 0,
                      transparentBackgroundWebEmbeding: row.transparentBackgroundWebEmbeding ?? false,
                    },
            },
      branding:
        row.brandingId === null
          ? null
          : {
              primaryColor: row.primaryColor,
              textColor: row.textColor,
              backgroundColor: row.backgroundColor,
              brandLogo: row.brandLogo,
              modelBgLogo: row.modelBgLogo,
              modelLoadingLogo: row.modelLoadingLogo,
              additionalViewsValidation: row.additionalViewsValidation ?? false,
            },
    },
  };
}

/** What the database says about a token, checked again on every call (the plan against the clock). */
interface Found {
  revoked: boolean;
  /** Checked against the clock on every call, like the plan. */
  expiresAt: Date | null;
  modelDeleted: boolean;
  /** The model is public, listed for the tenant, or the tenant is the platform. */
  visible: boolean;
  embed: EmbedRecord;
}

/** Frozen all the way down: a cached record is shared by every call that reads it. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !(value instanceof Date) && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

const foundOf = (row: Row): Found =>
  deepFreeze({
    revoked: row.revokedAt !== null,
    expiresAt: row.expiresAt,
    modelDeleted: row.modelDeleted,
    visible: row.isPublic || row.isPlatform || row.listed,
    embed: recordOf(row),
  });

/** Tokens a process remembers at once (a few kB each). */
const CACHED_TOKENS = 5_000;
const caches = new WeakMap<Config, TtlCache<string, Found | null>>();

/**
 * The process's cache of token lookups (one per configuration object), keyed by the token's sha256 so
 * no raw token outlives its request in memory, shared by the embed detail
 * call and the viewer load: a page load and its viewer, and every other load of a popular link within
 * EMBED_ACCESS_CACHE_MS, cost one query. Unknown tokens are remembered too (they cannot become valid:
 * tokens are random), so a stream of them costs no more queries than the rate limit lets through.
 */
function cacheOf(config: Config): TtlCache<string, Found | null> {
  let cache = caches.get(config);
  if (!cache) {
    cache = new TtlCache({ ttlMs: config.EMBED_ACCESS_CACHE_MS, maxEntries: CACHED_TOKENS });
    caches.set(config, cache);
  }
  return cache;
}

/**
 * Drops what this process remembers of a token (after its link was revoked or its expiry changed), so
 * the next load here reads the database. Other API processes see the change within
 * EMBED_ACCESS_CACHE_MS, as with every change on the embed path.
 */
export function forgetEmbedAccess(config: Config, tokenHash: string): void {
  caches.get(config)?.delete(tokenHash);
}

/**
 * Whether an embed (or share) token may show its model now: the token exists, is not revoked and has
 * not expired, the model is not deleted and still visible to the token's tenant, and the tenant has an
 * active plan. What the database says may be up to EMBED_ACCESS_CACHE_MS old (see cacheOf); the
 * token's expiry and the plan's dates are checked against `now` on every call. The record is shared between calls (and frozen).
 */
export async function embedAccess(
  deps: Pick<ServerDeps, 'db' | 'config'>,
  token: string,
  now = new Date(),
): Promise<EmbedAccess> {
  if (!EMBED_TOKEN_SHAPE.test(token)) return { ok: false, reason: 'token' };
  const tokenHash = sha256(token);
  const found = await cacheOf(deps.config).getOrLoad(tokenHash, async () => {
    const row = await findEmbed(deps.db, tokenHash);
    return row ? foundOf(row) : null;
  });
  if (!found || found.revoked) return { ok: false, reason: 'token' };
  if (found.expiresAt && found.expiresAt <= now) return { ok: false, reason: 'token' };
  if (found.modelDeleted || !found.visible) return { ok: false, reason: 'model' };
  if (!hasActivePlan(found.embed.tenant, now)) return { ok: false, reason: 'plan' };
  return { ok: true, embed: found.embed };
}
