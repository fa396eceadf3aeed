import { randomUUID } from 'node:crypto';
import { MSG } from '@helix/shared';
import type { ModelUpdateInput } from '@helix/shared/schemas/model';
import type { ServerDeps } from '../deps.ts';
import { Prisma } from '../db.ts';
import { AppError } from '../errors.ts';
import { presentModel, type ModelRecord } from '../presenters/model.presenter.ts';
import type { Actor } from '../sessions/session.service.ts';
import { storageOf } from '../storage/create-storage.ts';
import { glbProblems } from './glb.ts';
import { checkImageInWorker, decodeDataUrl } from './check-image-in-worker.ts';
import { viewDepsOf } from '../views/views-summary.ts';
import { modelViewCounts } from './model-stats.query.ts';
import { authorizeCatalogue, visibleTo } from './model.policy.ts';
import { pendingViews } from '../views/record-view.ts';
import type { ModelView } from '@helix/shared/schemas/model';
import { noteAudit } from '../audit/audit-context.ts';
import { afterCommit, withTransaction } from '../db/transaction.ts';

/** An uploaded file part (multer memory storage). */
export interface UploadedFile {
  buffer: Buffer;
  size: number;
  originalname?: string;
}

export interface ModelFiles {
  file?: UploadedFile;
  thumbnail?: UploadedFile;
}

const include = { restrictedTenants: { select: { tenantId: true } } } as const;

const fieldError = (field: string, message: string) => AppError.field(field, message, 400);

const urlNameTaken = () => AppError.conflict(MSG.modelUrlNameTaken, { urlModelName: MSG.modelUrlNameTaken });

/** What the thumbnail part of the form asks for. */
type ThumbnailChange = { kind: 'keep' } | { kind: 'remove' } | { kind: 'new'; bytes: Buffer };

function thumbnailChange(input: ModelUpdateInput, files: ModelFiles): ThumbnailChange {
  if (files.thumbnail) return { kind: 'new', bytes: files.thumbnail.buffer };
  const value = input.thumbnail;
  if (value === undefined || value === null || value === 'null') return { kind: 'keep' };
  if (value === '') return { kind: 'remove' };
  if (/^data:/i.test(value.trim())) {
    const bytes = decodeDataUrl(value);
    if (!bytes) throw fieldError('thumbnail', MSG.imageTypeNotAllowed);
    return { kind: 'new', bytes };
  }
  // The form may send back the URL it was given for the current thumbnail.
  if (/^(https?:\/\/[^\s]+)?\/api\/files\/images\/[\w.%-]+$/.test(value)) return { kind: 'keep' };
  throw fieldError('thumbnail', MSG.imageTypeNotAllowed);
}

/** A model as the catalogue admin's listing shows it. */
async function presentSaved(deps: ServerDeps, actor: Actor, model: ModelRecord): Promise<ModelView> {
  const viewDeps = viewDepsOf(deps);
  const counts = await modelViewCounts(viewDeps, await pendingViews(viewDeps), [model.id], null);
  return presentModel(model, actor, { admin: true, stats: { viewCount: counts.get(model.id) ?? 0 } });
}

/** The model changed since the version the edit was based on: 409 with the model now (404 if gone). */
async function versionConflict(deps: ServerDeps, actor: Actor, id: number): Promise<AppError> {
  const now = await deps.db.model.findFirst({ where: { id, deletedAt: null }, include });
  return now
    ? AppError.versionConflict(await presentSaved(deps, actor, now), MSG.modelVersionConflict)
    : AppError.notFound();
}

/**
 * POST /model/update: id 0 adds a model, any other id updates it (catalogue admins only). The .glb is
 * checked structurally here, the thumbnail by content in the worker; both are stored before the
 * database write and removed again if it fails. Every save increments the version; an update based
 * on another version (If-Match, else the body's `version`) answers 409 VERSION_CONFLICT with the model
 * as it is now.
 */
export async function saveModel(
  deps: ServerDeps,
  actor: Actor,
  input: ModelUpdateInput,
  files: ModelFiles,
  ifMatch?: number,
): Promise<{ model: ModelView; created: boolean }> {
  const { db } = deps;
  const adding = input.id === 0;
  authorizeCatalogue(actor, adding ? 'add' : 'update');

  const existing = adding
    ? null
    : await db.model.findFirst({ where: { id: input.id, ...visibleTo(actor) }, include });
  if (!adding && !existing) throw AppError.notFound();
  const expectedVersion = ifMatch ?? input.version;
  if (existing && expectedVersion !== undefined && expectedVersion !== existing.version) {
    throw await versionConflict(deps, actor, existing.id);
  }

  const clash = await db.model.findFirst({
    where: {
      urlModelName: input.urlModelName,
      deletedAt: null,
      ...(existing ? { NOT: { id: existing.id } } : {}),
    },
    select: { id: true },
  });
  if (clash) throw urlNameTaken();

  // Absent fields keep what the model has (an update that omits them must not make it public).
  const restrictedTenants = input.restrictedTenants;
  if (restrictedTenants && restrictedTenants.length > 0) {
    const known = await db.tenant.count({
      where: { id: { in: restrictedTenants }, isPlatform: false },
    });
    if (known !== restrictedTenants.length) throw fieldError('restrictedTenants', MSG.unknownTenants);
  }

  if (adding && !files.file) throw fieldError('file', MSG.modelFileRequired);
  if (files.file && glbProblems(files.file.buffer).length > 0) throw fieldError('file', MSG.modelFileInvalid);

  const thumbnail = thumbnailChange(input, files);
  const storage = storageOf(deps);
  const written: string[] = [];
  try {
    let thumbnailKey = existing?.thumbnail ?? null;
    if (thumbnail.kind === 'new') {
      thumbnailKey = await checkImageInWorker(
        deps,
        thumbnail.bytes,
        'thumbnail',
        'thumbnail',
        actor.tenant.id,
      );
      written.push(thumbnailKey);
    } else if (thumbnail.kind === 'remove') {
      thumbnailKey = null;
    }
    let fileKey = existing?.fileKey ?? null;
    if (files.file) {
      fileKey = `models/${randomUUID()}.glb`;
      await storage.put(fileKey, files.file.buffer, 'model/gltf-binary');
      written.push(fileKey);
    }

    const data = {
      name: input.name,
      urlModelName: input.urlModelName,
      isPublic: input.isPublic ?? existing?.isPublic ?? true,
      fileKey,
      thumbnail: thumbnailKey,
      ...(input.backgroundColor !== undefined ? { backgroundColor: input.backgroundColor || null } : {}),
    };
    const saved: ModelRecord = await withTransaction(db, async (tx) => {
      if (!existing) {
        const created = await tx.model.create({
          data: {
            ...data,
            restrictedTenants: { create: (restrictedTenants ?? []).map((tenantId) => ({ tenantId })) },
          },
          include,
        });
        noteAudit({ action: 'model.create', targetId: created.id });
        return created;
      }
      // Optimistic: the row must still be at the version this save read.
      const updated = await tx.model.updateMany({
        where: { id: existing.id, version: existing.version, deletedAt: null },
        data: { ...data, version: { increment: 1 } },
      });
      if (updated.count === 0) throw await versionConflict(deps, actor, existing.id);
      if (restrictedTenants) {
        await tx.modelTenantAccess.deleteMany({ where: { modelId: existing.id } });
        await tx.modelTenantAccess.createMany({
          data: restrictedTenants.map((tenantId) => ({ modelId: existing.id, tenantId })),
        });
      }
      return tx.model.findUniqueOrThrow({ where: { id: existing.id }, include });
    });

    // The files this save replaced are not referenced any more, once the save has committed.
    for (const old of [existing?.fileKey, existing?.thumbnail]) {
      if (old && old !== saved.fileKey && old !== saved.thumbnail) {
        await afterCommit(() =>
          storage
            .delete(old)
            .catch((err: unknown) => deps.logger.warn({ err, key: old }, 'old model file not deleted')),
        );
      }
    }

    return { model: await presentSaved(deps, actor, saved), created: adding };
  } catch (error) {
    for (const key of written) await storage.delete(key).catch(() => undefined);
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002') throw urlNameTaken();
    throw error;
  }
}
