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

/**
 * POST /user/edit (administration-content 4): the signed-in user's full name, picture and password.
 * The e-mail is read-only. A new picture is checked by content and cut to a square in the worker;
 * '' removes it. A password change needs the old password and ends the user's other sessions (not
 * this one), as a password reset does.
 */
export async function updateProfile(
  deps: ServerDeps,
  actor: Actor,
  input: ProfileUpdateInput,
  file?: { buffer: Buffer },
): Promise<ProfileUpdateResponse> {
  authorizeProfile(actor, 'update');
  const { db } = deps;
  const user = actor.user;

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
  const picture = bytes ? await checkImageInWorker(deps, bytes, 'profile', 'profilePicture') : undefined;

  try {
    const updated = await db.$transaction(async (tx) => {
      const saved = await tx.user.update({
        where: { id: user.id },
        data: {
          name: input.name,
          ...(passwordHash ? { passwordHash } : {}),
          ...(picture ? { profilePicture: picture } : removePicture ? { profilePicture: null } : {}),
        },
        include: sessionUserInclude,
      });
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
      await storage
        .delete(old)
        .catch((err: unknown) => deps.logger.warn({ err, key: old }, 'old profile picture not deleted'));
    }
    return { message: MSG.userUpdated, user: presentSessionUser(updated) };
  } catch (error) {
    if (picture) await storage.delete(picture).catch(() => undefined);
    throw error;
  }
}
