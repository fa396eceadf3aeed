import { ProfileUpdateResponse } from '@helix/shared/schemas/profile';
import { tenantApi } from '../../api/client';
import { sendOrQueue, type EditResult } from '../../offline/outbox';
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
function toProfileFormData(change: ProfileChange): FormData {
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

type Saved = { message: string; user: SessionUser };

const parsed = (answer: unknown): Saved => {
  const p = ProfileUpdateResponse.parse(answer);
  return { message: p.message, user: p.user as SessionUser };
};

/**
 * POST /user/edit: the answer is parsed with the shared schema before the web uses it. A name change
 * alone goes through the outbox (queued offline, If-Match: the profile's version); a picture or a
 * password change is sent now or fails (neither is kept on the device).
 */
export async function saveProfile(change: ProfileChange, user: SessionUser): Promise<EditResult<Saved>> {
  const headers: Record<string, string> = user.version ? { 'If-Match': String(user.version) } : {};
  if (change.picture || change.newPassword || change.oldPassword || change.confirmPassword) {
    const answer = await tenantApi.postForm<unknown>('/user/edit', toProfileFormData(change), { headers });
    return { status: 'sent', data: parsed(answer) };
  }
  const result = await sendOrQueue<unknown>({
    kind: 'profile.update',
    target: 'profile',
    label: `Profile name: ${change.name}`,
    path: '/user/edit',
    body: { name: change.name },
    baseVersion: user.version ?? null,
  });
  return result.status === 'sent' ? { status: 'sent', data: parsed(result.data) } : result;
}
