import { z } from 'zod';
import { MSG } from '../messages.ts';
import { SessionUser } from './session.ts';
import { requiredText } from './text.ts';

/**
 * POST /user/edit (administration-content 4, 5, 7): the signed-in user's own profile, as
 * multipart/form-data (the picture as a file part `profilePicture`) or JSON. The web form validates
 * with the same schema, so the password messages are written once.
 *
 * - `profilePicture` as a string: a data URL (a new picture), '' (remove it); absent or 'null' keeps it.
 * - `email` is read-only: the form sends it back and the server ignores it.
 * - A password change needs `oldPassword`, `newPassword` (at least 6) and a matching `confirmPassword`;
 *   all three empty or absent: no change.
 */
export const PROFILE_LIMITS = {
  name: 100,
  password: 200,
  /** A 1 MB picture is ~1.4 MB of base64. */
  pictureDataUrl: 1_500_000,
} as const;

export const PASSWORD_MIN = 6;

const password = z
  .string()
  .max(PROFILE_LIMITS.password, { error: MSG.tooLong(PROFILE_LIMITS.password) })
  .optional()
  .transform((v) => v ?? '');

export const ProfileUpdate = z
  .strictObject({
    name: requiredText(MSG.addUserName, PROFILE_LIMITS.name),
    email: z.string().max(320).optional(),
    oldPassword: password,
    newPassword: password,
    confirmPassword: password,
    profilePicture: z
      .string()
      .max(PROFILE_LIMITS.pictureDataUrl, { error: MSG.fileOver1mb })
      .nullable()
      .optional(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (v.newPassword && !v.oldPassword) issue('oldPassword', MSG.oldPasswordRequired);
    if (v.oldPassword && !v.newPassword) issue('newPassword', MSG.newPasswordRequired);
    if (v.newPassword && v.newPassword.length < PASSWORD_MIN) issue('newPassword', MSG.passwordMin6);
    if ((v.newPassword || v.confirmPassword) && v.confirmPassword !== v.newPassword) {
      issue('confirmPassword', MSG.newPasswordMismatch);
    }
  });
export type ProfileUpdate = z.input<typeof ProfileUpdate>;
export type ProfileUpdateInput = z.output<typeof ProfileUpdate>;

/** What POST /user/edit answers: the catalogue's message and the session user as it is now. */
export const ProfileUpdateResponse = z.object({
  message: z.string(),
  user: SessionUser,
});
export type ProfileUpdateResponse = z.infer<typeof ProfileUpdateResponse>;
