import type { Request, Router } from 'express';
import {
  ForgotPasswordRequest,
  GoogleValidateRequest,
  JoinRequest,
  LoginRequest,
  LogoutRequest,
  RegisterRequest,
  ResetPasswordRequest,
  ValidateUserRequest,
} from '@helix/shared';
import { ValidateUserResponse } from '@helix/shared/schemas/account';
import { MessageView } from '@helix/shared/schemas/role';
import { AuthResponse, SessionUser } from '@helix/shared/schemas/session';
import type { ServerDeps } from '@helix/server/deps';
import { login } from '@helix/server/accounts/login.command';
import { register } from '@helix/server/accounts/register.command';
import { join } from '@helix/server/accounts/join.command';
import { logout } from '@helix/server/accounts/logout.command';
import { resetPassword, sendPasswordResetToken } from '@helix/server/accounts/password-reset.command';
import { validateGoogle } from '@helix/server/accounts/google.command';
import { validateUser } from '@helix/server/accounts/validate-user.query';
import { presentSessionUser } from '@helix/server/presenters/session-user.presenter';
import { actorOf } from '../http/auth.ts';
import { oauthCookie } from '../http/oauth-cookie.ts';
import { loginLimiters, routeLimiter } from '../http/rate-limit.ts';
import { inputOf, NoQuery } from '../http/validate.ts';
import { noContent } from '../openapi/describe.ts';
import { API, defineRoute, routerOf, TENANT, type RouteHandler } from './define-route.ts';

const meta = (req: Request) => ({ userAgent: req.get('user-agent') ?? null });

const limit = (name: string) => (deps: ServerDeps) => [routeLimiter(deps, name)];

const logoutHandler: RouteHandler = (deps) => async (req, res) => {
  await logout(deps.db, actorOf(req));
  res.status(204).end();
};

/** Accounts, base calls (no session): login, sign-up, join, password reset, Google validation. */
const baseRoutes = [
  defineRoute({
    method: 'post',
    path: '/api/user/login',
    tag: 'Accounts',
    summary: 'Log in',
    description:
      "A new login ends the user's other sessions. Wrong credentials answer 400 with `errors.password`.",
    body: LoginRequest,
    limited: true,
    ok: AuthResponse,
    before: (deps) => loginLimiters(deps),
    handler: (deps) => async (req, res) => {
      res.json(await login(deps.db, inputOf(req, LoginRequest), meta(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/user/register',
    tag: 'Accounts',
    summary: 'Sign up (a new school or individual); with `token` it is a join',
    body: RegisterRequest,
    limited: true,
    errors: [409],
    ok: { status: 201, schema: AuthResponse },
    before: limit('register'),
    handler: (deps) => async (req, res) => {
      const input = inputOf(req, RegisterRequest);
      // The sign-up payload with an invitation token is a join (accounts 3).
      const result = input.token
        ? await join(deps.db, { ...input, token: input.token }, meta(req))
        : await register(deps.db, input, meta(req));
      res.status(201).json(result);
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/user/join',
    tag: 'Accounts',
    summary: 'Join the inviting tenant',
    body: JoinRequest,
    limited: true,
    errors: [409],
    ok: { status: 201, schema: AuthResponse },
    before: limit('join'),
    handler: (deps) => async (req, res) => {
      res.status(201).json(await join(deps.db, inputOf(req, JoinRequest), meta(req)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/validate-user',
    tag: 'Accounts',
    summary: 'Is this e-mail or username free?',
    body: ValidateUserRequest,
    limited: true,
    ok: ValidateUserResponse,
    before: limit('validate-user'),
    handler: (deps) => async (req, res) => {
      res.json(await validateUser(deps.db, inputOf(req, ValidateUserRequest)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/user/send_password_reset_token',
    tag: 'Accounts',
    summary: 'E-mail a password reset link (the same answer whether or not the address exists)',
    body: ForgotPasswordRequest,
    limited: true,
    ok: MessageView,
    before: limit('send-password-reset-token'),
    handler: (deps) => async (req, res) => {
      res.json(await sendPasswordResetToken(deps, inputOf(req, ForgotPasswordRequest)));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/user/reset_password',
    tag: 'Accounts',
    summary: 'Set a new password with a reset token',
    body: ResetPasswordRequest,
    limited: true,
    ok: MessageView,
    before: limit('reset-password'),
    handler: (deps) => async (req, res) => {
      res.json(await resetPassword(deps, inputOf(req, ResetPasswordRequest)));
    },
  }),
  /**
   * Google sign-in, second half: the web's /auth/google page trades the one-time code for a session,
   * from the browser that started sign-in (its cookie, sent by the same-origin fetch). The cookie is
   * used up either way. One route at the web's two paths: after a sign-up (validate) and after a
   * login (validate-login).
   */
  ...(['/api/user/validate', '/api/user/validate-login'] as const).map((path) =>
    defineRoute({
      method: 'post',
      path,
      tag: 'Accounts',
      summary: 'Google sign-up or login, second half: trade the one-time code for a session',
      description: 'Needs the `helix_oauth` cookie of the browser that started sign-in.',
      body: GoogleValidateRequest,
      limited: true,
      ok: AuthResponse,
      before: limit('google-validate'),
      handler: (deps) => {
        const oauth = oauthCookie(deps.config);
        return async (req, res) => {
          const browserSecret = oauth.read(req);
          oauth.clear(res);
          const { code } = inputOf(req, GoogleValidateRequest);
          res.json(await validateGoogle(deps, { code, browserSecret }, meta(req)));
        };
      },
    }),
  ),
  // Also reachable as a base call, for a client that lost its tenant.
  defineRoute({
    method: 'post',
    path: '/api/user/logout',
    tag: 'Accounts',
    summary: 'Log out (base call)',
    auth: 'session',
    body: LogoutRequest,
    ok: noContent('The session is ended.'),
    handler: logoutHandler,
  }),
];

/** Accounts, tenant calls (/api/t/:tenant, after auth and the tenant check). */
const tenantRoutes = [
  // Refreshes the session user: permissions, tenant and paymentPlan as they are now.
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/user/info',
    tag: 'Accounts',
    summary: 'The session user as it is now',
    query: NoQuery,
    ok: SessionUser,
    handler: () => (req, res) => {
      res.json(presentSessionUser(actorOf(req).user));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/t/:tenant/user/logout',
    tag: 'Accounts',
    summary: 'Log out',
    body: LogoutRequest,
    ok: noContent('The session is ended.'),
    handler: logoutHandler,
  }),
];

export const userRoutes = (deps: ServerDeps): Router => routerOf(deps, API, baseRoutes);
export const userTenantRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, tenantRoutes);
