import { MSG } from '@helix/shared';
import type { ProfileUpdateInput, ProfileUpdateResponse } from '@helix/shared/schemas/profile';
import { hashPassword, verifyPassword } from '../auth/password.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import { checkImageInWorker } from '../models/check-image-in-worker.ts';
import { presentSessionUser } from '../presenters/session-user.presenter.ts';
import { sessionUserInclude } from '../sessions/session-user.include.ts';
import type { Actor } from '../sessions/session.service.ts';
import { storageOf } from '../storage/create-storage.ts';
import { authorizeProfile } from './profile.policy.ts';
import { newImageBytes } from './uploaded-image.ts';
import { afterCommit, withTransaction } from '../db/transaction.ts';

/**
 * POST /user/edit (administration-content 4): the signed-in user's full name, picture and password.
 * The e-mail is read-only. A new picture is checked by content and cut to a square in the worker;
 * '' removes it. A password change needs the old password and ends the user's other sessions (not
 * this one), as a password reset does. Every update increments the profile's version; with
 * `expectedVersion` (If-Match) a profile changed since answers 409 VERSION_CONFLICT with the session
 * user as it is now.
 */
export async function updateProfile(
  deps: ServerDeps,
  actor: Actor,
  input: ProfileUpdateInput,
  file?: { buffer: Buffer },
  expectedVersion?: number,
): Promise<ProfileUpdateResponse> {
  authorizeProfile(actor, 'update');
  const { db } = deps;
  const user = actor.user;
  const conflict = async () =>
    AppError.versionConflict(
      presentSessionUser(
        await db.user.findUniqueOrThrow({ where: { id: user.id }, include: sessionUserInclude }),
      ),
    );
  if (expectedVersion !== undefined && expectedVersion !== user.version) throw await conflict();

  let passwordHash: string | undefined;
  if (input.newPassword) {
    if (!(await verifyPassword(user.passwordHash, input.oldPassword))) {
      throw AppError.badRequest(MSG.oldPasswordWrong, { oldPassword: MSG.oldPasswordWrong });
    }
    if (input.newPassword === input.oldPassword) {
      throw AppError.badRequest(MSG.passwordsDifferent, { newPassword: MSG.passwordsDifferent });
    }
    passwordHash = await hashPassword(input.newPassword);
  }

  const bytes = newImageBytes('profilePicture', input.profilePicture, file);
  const removePicture = !bytes && input.profilePicture === '';
  const storage = storageOf(deps);
  const picture = bytes
    ? await checkImageInWorker(deps, bytes, 'profile', 'profilePicture', actor.tenant.id)
    : undefined;

  try {
    const updated = await withTransaction(db, async (tx) => {
      // Optimistic: the profile must still be at the version this update was based on.
      const { count } = await tx.user.updateMany({
        where: { id: user.id, ...(expectedVersion !== undefined ? { version: expectedVersion } : {}) },
        data: {
          name: input.name,
          version: { increment: 1 },
          ...(passwordHash ? { passwordHash } : {}),
          ...(picture ? { profilePicture: picture } : removePicture ? { profilePicture: null } : {}),
        },
      });
      if (count === 0) throw await conflict();
      const saved = await tx.user.findUniqueOrThrow({ where: { id: user.id }, include: sessionUserInclude });
      if (passwordHash) {
        await tx.session.updateMany({
          where: { userId: user.id, endedAt: null, id: { not: actor.session.id } },
          data: { endedAt: new Date(), endedReason: 'password_reset' },
        });
      }
      return saved;
    });
    const old = user.profilePicture;
    if (old && old !== updated.profilePicture && old.startsWith('images/')) {
      // Only once the change has committed (an Idempotency-Key request commits after the answer).
      await afterCommit(() =>
        storage
          .delete(old)
          .catch((err: unknown) => deps.logger.warn({ err, key: old }, 'old profile picture not deleted')),
      );
    }
    return { message: MSG.userUpdated, user: presentSessionUser(updated) };
  } catch (error) {
    if (picture) await storage.delete(picture).catch(() => undefined);
    throw error;
  }
}
