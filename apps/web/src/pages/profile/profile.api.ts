import { ProfileUpdateResponse } from '@helix/shared/schemas/profile';
import { tenantApi } from '../../api/client';
import type { SessionUser } from '../../session/session-user';

export interface ProfileChange {
  name: string;
  oldPassword?: string;
  newPassword?: string;
  confirmPassword?: string;
  /** A new picture, or 'remove', or undefined to keep the current one. */
  picture?: File | 'remove';
}

/** The multipart body of POST /user/edit (the picture as a file part; '' removes it). */
export function toProfileFormData(change: ProfileChange): FormData {
  const form = new FormData();
  form.append('name', change.name);
  if (change.newPassword || change.oldPassword || change.confirmPassword) {
    form.append('oldPassword', change.oldPassword ?? '');
    form.append('newPassword', change.newPassword ?? '');
    form.append('confirmPassword', change.confirmPassword ?? '');
  }
  if (change.picture === 'remove') form.append('profilePicture', '');
  else if (change.picture) form.append('profilePicture', change.picture, change.picture.name);
  return form;
}

/** POST /user/edit: the answer is parsed with the shared schema before the web uses it. */
export async function saveProfile(change: ProfileChange): Promise<{ message: string; user: SessionUser }> {
  const answer = await tenantApi.postForm<unknown>('/user/edit', toProfileFormData(change));
  const parsed = ProfileUpdateResponse.parse(answer);
  return { message: parsed.message, user: parsed.user as SessionUser };
}
