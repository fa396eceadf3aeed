import { z } from 'zod';
import { MSG } from '../messages.ts';
import { LIMITS, newPassword } from './account.ts';
import { opaqueText, requiredText } from './text.ts';

/**
 * The invitation page (/invitation?token=): what the token holder may see before joining, and the join
 * itself. The API validates with these and the page's form takes its rules from InvitationForm, so
 * each message is written once (docs/invitation-page.md).
 */

/** GET /user/invitation?token= (public, rate limited). */
export const InvitationQuery = z.strictObject({
  token: opaqueText(LIMITS.token).pipe(z.string().min(1, { error: MSG.inviteInvalid })),
});

/** The school's look on the page: the same colours and logo its white-label pages use. */
export const InvitationSchool = z.object({
  name: z.string(),
  brandLogo: z.string().nullable(),
  primaryColor: z.string(),
  textColor: z.string(),
  backgroundColor: z.string(),
});
export type InvitationSchool = z.infer<typeof InvitationSchool>;

/**
 * What a token opens. `open`: the invitee may join (their e-mail, the name the school typed, when the
 * link expires). `expired`: past its expiry, or replaced by a newer invitation (who to ask for a new
 * one). `used`: already accepted (sign in instead). `invalid`: no such invitation, or its user was
 * removed: nothing about any school is said.
 */
export const InvitationView = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('open'),
    school: InvitationSchool,
    email: z.string(),
    name: z.string(),
    expiresAt: z.iso.datetime(),
  }),
  z.object({
    state: z.literal('expired'),
    school: InvitationSchool,
    inviterName: z.string().nullable(),
    expiresAt: z.iso.datetime(),
  }),
  z.object({ state: z.literal('used'), school: InvitationSchool }),
  z.object({ state: z.literal('invalid') }),
]);
export type InvitationView = z.infer<typeof InvitationView>;

/** POST /user/invitation/accept: the invitee's name and password; the e-mail is the invitation's. */
export const AcceptInvitationRequest = z.strictObject({
  token: InvitationQuery.shape.token,
  name: requiredText(MSG.nameRequired, LIMITS.name),
  password: newPassword(MSG.passwordRequired),
});
export type AcceptInvitationRequest = z.input<typeof AcceptInvitationRequest>;

/** The page's form: the request's fields plus the terms tick, which never leaves the browser. */
export const InvitationForm = AcceptInvitationRequest.omit({ token: true }).extend({
  terms: z.literal(true, { error: MSG.agreePrivacy }),
});
export type InvitationForm = z.input<typeof InvitationForm>;

/**
 * POST /user/invitation/renewal-request: the holder of an expired link asks the school for a new one
 * (the inviter, else the owner, gets an e-mail; at most one per invitation a day).
 */
export const InvitationRenewalRequest = z.strictObject({ token: InvitationQuery.shape.token });
