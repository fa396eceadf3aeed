import { MSG, type ImagePurpose } from '@helix/shared';
import type { BrandingImageField, BrandingUpdateInput } from '@helix/shared/schemas/branding';
import type { TenantBrandingView } from '@helix/shared/schemas/tenant';
import type { Config } from '../config.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { checkImageInWorker } from '../models/check-image-in-worker.ts';
import { presentTenantBranding } from '../presenters/branding.presenter.ts';
import { uniqueViolation, violates } from '../prisma-errors.ts';
import { newImageBytes } from '../profile/uploaded-image.ts';
import type { Actor } from '../sessions/session.service.ts';
import { storageOf } from '../storage/create-storage.ts';
import { authorizeBranding } from './branding.policy.ts';
import { bumpBrandingVersion } from './branding-version.ts';
import { ownTenant } from './tenant-scope.ts';
import { afterCommit, withTransaction } from '../db/transaction.ts';

/** Each branding image, what it is checked and resized as, and its remove flag. */
const IMAGES: { field: BrandingImageField; purpose: ImagePurpose; remove: keyof BrandingUpdateInput }[] = [
  { field: 'brandLogo', purpose: 'logo', remove: 'isBrandLogoRemove' },
  { field: 'modelLoadingLogo', purpose: 'loading', remove: 'isModelLoadingLogoRemove' },
  { field: 'modelBgLogo', purpose: 'background', remove: 'isModelBgLogoRemove' },
];

export type BrandingFiles = Partial<Record<BrandingImageField, { buffer: Buffer }>>;

/** The hosts Helix itself answers on: a tenant may not claim them as its custom domain. */
export function portalHosts(config: Pick<Config, 'PUBLIC_URL' | 'VIEWER_URL'>): Set<string> {
  return new Set([new URL(config.PUBLIC_URL).hostname, new URL(config.VIEWER_URL).hostname]);
}

const taken = (field: 'customBrandName' | 'customDomainName', message: string) =>
  AppError.conflict(message, { [field]: message });

/**
 * POST /tenant/update (administration-content 4, 5): colours, brand name, custom domain and the three
 * images of the caller's tenant. A new image is checked by content and resized in the worker; a remove
 * flag (without a new image) restores the default; neither keeps the current one. Images are stored
 * before the database write and removed again if it fails; replaced ones are removed after it.
 * Every update increments the branding's version; with `expectedVersion` (If-Match) branding changed
 * since answers 409 VERSION_CONFLICT with the branding as it is now (0: never saved). Once it has
 * committed, the looks' version is bumped (branding-version.ts).
 */
export async function updateBranding(
  deps: ServerDeps,
  actor: Actor,
  input: BrandingUpdateInput,
  files: BrandingFiles = {},
  expectedVersion?: number,
): Promise<TenantBrandingView> {
  authorizeBranding(actor, 'update');
  const { db } = deps;
  const conflict = async () => {
    const now = await db.tenant.findUniqueOrThrow({
      where: { id: actor.tenant.id },
      include: { branding: true },
    });
    return AppError.versionConflict(presentTenantBranding(now, now.branding));
  };
  if (expectedVersion !== undefined) {
    const row = await db.branding.findUnique({ where: ownTenant(actor), select: { version: true } });
    if ((row?.version ?? 0) !== expectedVersion) throw await conflict();
  }
  if (input.customDomainName) {
    const host = input.customDomainName;
    const own = [...portalHosts(deps.config)].some((p) => host === p || host.endsWith(`.${p}`));
    if (own) throw AppError.badRequest(MSG.domainIsPortal, { customDomainName: MSG.domainIsPortal });
  }
  const clash = await db.tenant.findFirst({
    where: {
      id: { not: actor.tenant.id },
      OR: [
        { customBrandName: { equals: input.customBrandName, mode: 'insensitive' } },
        ...(input.customDomainName
          ? [{ customDomainName: { equals: input.customDomainName, mode: 'insensitive' as const } }]
          : []),
      ],
    },
    select: { customBrandName: true },
  });
  if (clash) {
    throw clash.customBrandName?.toLowerCase() === input.customBrandName
      ? taken('customBrandName', MSG.brandNameTaken)
      : taken('customDomainName', MSG.domainTaken);
  }

  // Every image is read before anything is stored, so a malformed one stores nothing.
  const incoming = IMAGES.map((image) => ({
    ...image,
    bytes: newImageBytes(image.field, input[image.field], files[image.field]),
  }));
  const current = await db.branding.findUnique({ where: ownTenant(actor) });
  const storage = storageOf(deps);
  const written: string[] = [];
  try {
    const images: Partial<Record<BrandingImageField, string | null>> = {};
    for (const image of incoming) {
      if (image.bytes) {
        const key = await checkImageInWorker(deps, image.bytes, image.purpose, image.field, actor.tenant.id);
        written.push(key);
        images[image.field] = key;
      } else if (input[image.remove] === true) {
        images[image.field] = null;
      }
    }
    const colours = {
      primaryColor: input.primaryColor,
      textColor: input.textColor,
      backgroundColor: input.backgroundColor,
    };
    const tenant = await withTransaction(db, async (tx) => {
      // The tenant row first: concurrent updates of one school queue on it, so they never lock the
      // branding row and the tenant row in opposite orders (a deadlock, answered 503 DATABASE_BUSY).
      await tx.tenant.update({
        where: { id: actor.tenant.id },
        data: { customBrandName: input.customBrandName, customDomainName: input.customDomainName },
        select: { id: true },
      });
      if (expectedVersion === undefined) {
        await tx.branding.upsert({
          where: ownTenant(actor),
          create: { ...ownTenant(actor), ...colours, ...images },
          update: { ...colours, ...images, version: { increment: 1 } },
        });
      } else if (expectedVersion === 0) {
        // Never saved: the unique tenantId refuses a second creation (a conflict below).
        await tx.branding.create({ data: { ...ownTenant(actor), ...colours, ...images } });
      } else {
        // Optimistic: the row must still be at the version the edit was based on.
        const { count } = await tx.branding.updateMany({
          where: { ...ownTenant(actor), version: expectedVersion },
          data: { ...colours, ...images, version: { increment: 1 } },
        });
        if (count === 0) throw await conflict();
      }
      return tx.tenant.findUniqueOrThrow({ where: { id: actor.tenant.id }, include: { branding: true } });
    });

    // Once committed: what was rendered with the old look is rendered again at its next load.
    await afterCommit(() => bumpBrandingVersion(deps));
    for (const { field } of IMAGES) {
      const old = current?.[field];
      if (old && old !== tenant.branding?.[field] && old.startsWith('images/')) {
        // Only once the change has committed (an Idempotency-Key request commits after the answer).
        await afterCommit(() =>
          storage
            .delete(old)
            .catch((err: unknown) => deps.logger.warn({ err, key: old }, 'old branding image not deleted')),
        );
      }
    }
    return presentTenantBranding(tenant, tenant.branding);
  } catch (error) {
    for (const key of written) await storage.delete(key).catch(() => undefined);
    const detail = uniqueViolation(error);
    if (violates(detail, 'Branding', 'tenantId')) throw await conflict();
    if (violates(detail, 'Tenant', 'customBrandName')) throw taken('customBrandName', MSG.brandNameTaken);
    if (violates(detail, 'Tenant', 'customDomainName')) throw taken('customDomainName', MSG.domainTaken);
    throw error;
  }
}
