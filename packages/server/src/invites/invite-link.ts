/** The sign-up page with the invitation token: the invitee sets their name and password and joins. */
export function inviteLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/signup?token=${encodeURIComponent(token)}`;
}
