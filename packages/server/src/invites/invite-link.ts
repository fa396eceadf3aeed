/**
 * The invitation page with the invitation token (docs/invitation-page.md): the invitee sees their
 * school, sets their name and password and joins. Links mailed before it (/signup?token=) still work:
 * the sign-up page sends them on to this page.
 */
export function inviteLink(publicUrl: string, token: string): string {
  return `${publicUrl.replace(/\/+$/, '')}/invitation?token=${encodeURIComponent(token)}`;
}
