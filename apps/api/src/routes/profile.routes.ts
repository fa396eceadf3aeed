import { Router, type RequestHandler } from 'express';
import { MSG } from '@helix/shared';
import { ProfileUpdate } from '@helix/shared/schemas/profile';
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
import { validate, inputOf } from '../http/validate.ts';

const MB = 1024 * 1024;

/** The profile policy before the upload is read. */
const mayUpdateProfile: RequestHandler = (req, _res, next) => {
  authorizeProfile(actorOf(req), 'update');
  next();
};

/** The signed-in user's profile (/api/t/:tenant, after auth and the tenant check). */
export function profileTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });
  const picture = upload({
    files: [{ name: 'profilePicture', maxBytes: MB, tooLarge: MSG.fileOver1mb, tooLargeStatus: 400 }],
    maxFieldBytes: 1_500_000,
    maxFields: 8,
  });

  // A password change checks the old password: limited like a login, so a borrowed session cannot be
  // used to guess it. A new picture counts against the user's image uploads; a name edit is not limited.
  const passwordLimit = routeLimiter(deps, 'password-change');
  const limitPasswordChange: RequestHandler = (req, res, next) => {
    if (inputOf(req, ProfileUpdate).newPassword) return passwordLimit(req, res, next);
    next();
  };

  router.post(
    '/user/edit',
    mayUpdateProfile,
    picture,
    // An outbox call (Idempotency-Key, If-Match: the profile's version).
    idempotent(deps),
    imageUploadLimiter(deps, ['profilePicture']),
    validate(ProfileUpdate),
    limitPasswordChange,
    audited(deps, 'profile.update', 'profile'),
    async (req, res) => {
      const { profilePicture } = uploadedFiles(req);
      res.json(
        await updateProfile(deps, actorOf(req), inputOf(req, ProfileUpdate), profilePicture, ifMatch(req)),
      );
    },
  );
  return router;
}
