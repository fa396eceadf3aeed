import { z } from 'zod';
import { MSG } from '../messages.ts';
import { optionalText, requiredText } from './text.ts';

/**
 * Request schemas of the accounts area. The API validates with them and the web forms take their
 * rules from them, so each message is written once.
 */
export const USERNAME_PATTERN = /^[a-z]+[0-9]*$/;
export const LIMITS = { name: 100, userName: 40, email: 254, password: 200, token: 200 } as const;

export const email = (requiredMessage: string) =>
  requiredText(requiredMessage, LIMITS.email)
    .pipe(z.email({ error: MSG.emailInvalid }))
    .transform((value) => value.toLowerCase());

/** Passwords are taken as typed (no trimming); only NUL is refused. */
const password = (requiredMessage: string) =>
  z
    .string({ error: requiredMessage })
    .min(1, { error: requiredMessage })
    .max(LIMITS.password, { error: MSG.tooLong(LIMITS.password) })
    .refine((value) => !value.includes('\u0000'), { error: MSG.invalidCharacters });

/** The one rule for a new password: sign-up (and joining by invitation), set/reset password, add user. */
export const PASSWORD_MIN_LENGTH = 8;

/**
 * A new password: at least PASSWORD_MIN_LENGTH characters (the forms say so under the field), taken as
 * typed. Logging in accepts any stored password (`password` above): accounts made before the rule
 * keep working.
 */
export const newPassword = (requiredMessage: string) =>
  password(requiredMessage).pipe(z.string().min(PASSWORD_MIN_LENGTH, { error: MSG.passwordMin8 }));

export const userName = requiredText(MSG.usernameRequired, LIMITS.userName).regex(USERNAME_PATTERN, {
  error: MSG.usernameRule,
});

export const LoginRequest = z.strictObject({
  email: email(MSG.loginEmailRequired),
  password: password(MSG.loginPasswordRequired),
  rememberMe: z.boolean().optional(),
  token: z.string().max(LIMITS.token).optional(),
});
export type LoginRequest = z.input<typeof LoginRequest>;

export const RegisterRequest = z.strictObject({
  name: requiredText(MSG.nameRequired, LIMITS.name),
  user_name: userName,
  email: email(MSG.emailRequired),
  password: newPassword(MSG.passwordRequired),
  emailstatus: z.boolean().default(false),
  token: z.string().max(LIMITS.token).optional(),
});
export type RegisterRequest = z.input<typeof RegisterRequest>;

export const JoinRequest = RegisterRequest.extend({
  token: z.string({ error: MSG.inviteInvalid }).min(1, { error: MSG.inviteInvalid }).max(LIMITS.token),
});
export type JoinRequest = z.input<typeof JoinRequest>;

/** The sign-up form adds the terms tick, which never leaves the browser. */
export const SignupForm = RegisterRequest.extend({
  terms: z.literal(true, { error: MSG.agreePrivacy }),
});

export const ForgotPasswordRequest = z.strictObject({
  email: email(MSG.emailRequired),
  /** Brand suffix for the link in the e-mail (/set-password/{brand}). */
  brand: optionalText(LIMITS.name),
});

export const ResetPasswordRequest = z.strictObject({
  token: z.string().min(1, { error: MSG.resetTokenInvalid }).max(LIMITS.token),
  password: newPassword(MSG.passwordMin8),
});

/** The set-password form: the same password rule plus a confirmation that must match. */
export const SetPasswordForm = z
  .strictObject({
    password: ResetPasswordRequest.shape.password,
    confirm: z.string({ error: MSG.passwordMismatch }).min(1, { error: MSG.passwordMismatch }),
  })
  .refine((v) => v.password === v.confirm, { path: ['confirm'], error: MSG.passwordMismatch });

/** Google sign-in: after the OAuth round trip the web client asks the API what to do next. */
export const GoogleValidateRequest = z.strictObject({
  type: z.enum(['login', 'signup']),
  code: z.string({ error: MSG.somethingWentWrong }).min(1, { error: MSG.somethingWentWrong }).max(500),
});

export const ClientLogRequest = z.strictObject({
  message: z.string().max(2000),
  error: z.string().max(10000).optional(),
  level: z.enum(['error', 'warn', 'info']).default('error'),
});

export const AUTH_TYPES = ['is-loggedin', 'is-register', 'login'] as const;
export type AuthType = (typeof AUTH_TYPES)[number];

/** POST /validate-user: sign-up checks a field early. Each given field answers 'available' or 'taken'. */
export const ValidateUserRequest = z.strictObject({
  email: email(MSG.emailRequired).optional(),
  user_name: userName.optional(),
});
export type ValidateUserRequest = z.input<typeof ValidateUserRequest>;
const availability = z.enum(['available', 'taken']);
export const ValidateUserResponse = z.object({
  email: availability.optional(),
  user_name: availability.optional(),
});
export type ValidateUserResponse = z.output<typeof ValidateUserResponse>;

/**
 * GET /auth/google: where the round trip starts. Nothing else is taken: the web app keeps the page to
 * return to itself (local storage), so no return address travels through the provider.
 */
export const GoogleStartQuery = z.strictObject({
  type: z.enum(['login', 'signup']).default('login'),
});

/** POST /user/logout has no fields. */
export const LogoutRequest = z.strictObject({});
