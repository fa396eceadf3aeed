import type { RequestHandler, Router } from 'express';
import { MSG } from '@helix/shared';
import { ProfileUpdate, ProfileUpdateResponse } from '@helix/shared/schemas/profile';
import type { ServerDeps } from '@helix/server/deps';
import { authorizeProfile } from '@helix/server/profile/profile.policy';
import { updateProfile } from '@helix/server/profile/update-profile.command';
import { audited } from '../http/audited.ts';
import { actorOf } from '../http/auth.ts';
import { idempotent } from '../http/idempotency.ts';
import { ifMatch } from '../http/if-match.ts';
import { imageUploadLimiter } from '../http/image-upload-limit.ts';
import { routeLimiter } from '../http/rate-limit.ts';
import { upload, uploadedFiles } from '../http/upload.ts';
import { inputOf } from '../http/validate.ts';
import { defineRoute, routerOf, TENANT } from './define-route.ts';

const MB = 1024 * 1024;

/** The profile policy before the upload is read. */
const mayUpdateProfile: RequestHandler = (req, _res, next) => {
  authorizeProfile(actorOf(req), 'update');
  next();
};

/**
 * A password change checks the old password: limited like a login, so a borrowed session cannot be
 * used to guess it. A new picture counts against the user's image uploads; a name edit is not limited.
 */
function limitPasswordChange(deps: ServerDeps): RequestHandler {
  const passwordLimit = routeLimiter(deps, 'password-change');
  return (req, res, next) => {
    if (inputOf(req, ProfileUpdate).newPassword) return passwordLimit(req, res, next);
    next();
  };
}

/** The signed-in user's profile (/api/t/:tenant, after auth and the tenant check). */
const editProfile = defineRoute({
  method: 'post',
  path: '/api/t/:tenant/user/edit',
  tag: 'Accounts',
  summary: 'Edit the own profile (name, picture, password)',
  permission: 'Profile.update',
  body: ProfileUpdate,
  bodyType: 'multipart',
  uploads: true,
  outbox: {},
  limited: true,
  ok: ProfileUpdateResponse,
  before: (deps) => [
    mayUpdateProfile,
    upload({
      files: [{ name: 'profilePicture', maxBytes: MB, tooLarge: MSG.fileOver1mb, tooLargeStatus: 400 }],
      maxFieldBytes: 1_500_000,
      maxFields: 8,
    }),
    // An outbox call (Idempotency-Key, If-Match: the profile's version).
    idempotent(deps),
    imageUploadLimiter(deps, ['profilePicture']),
  ],
  after: (deps) => [limitPasswordChange(deps), audited(deps, 'profile.update', 'profile')],
  handler: (deps) => async (req, res) => {
    const { profilePicture } = uploadedFiles(req);
    res.json(
      await updateProfile(deps, actorOf(req), inputOf(req, ProfileUpdate), profilePicture, ifMatch(req)),
    );
  },
});

export const profileTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, [editProfile]);
