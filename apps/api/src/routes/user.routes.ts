import { Router, type Request } from 'express';
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
import type { ServerDeps } from '@helix/server/deps';
import { login } from '@helix/server/accounts/login.command';
import { register } from '@helix/server/accounts/register.command';
import { join } from '@helix/server/accounts/join.command';
import { logout } from '@helix/server/accounts/logout.command';
import { resetPassword, sendPasswordResetToken } from '@helix/server/accounts/password-reset.command';
import { validateGoogle } from '@helix/server/accounts/google.command';
import { validateUser } from '@helix/server/accounts/validate-user.query';
import { presentSessionUser } from '@helix/server/presenters/session-user.presenter';
import { actorOf, auth } from '../http/auth.ts';
import { oauthCookie } from '../http/oauth-cookie.ts';
import { loginLimiters, routeLimiter } from '../http/rate-limit.ts';
import { inputOf, NoQuery, validate } from '../http/validate.ts';

const meta = (req: Request) => ({ userAgent: req.get('user-agent') ?? null });

/** Accounts, base calls (no session): login, sign-up, join, password reset, Google validation. */
export function userRoutes(deps: ServerDeps): Router {
  const { db } = deps;
  const limit = (name: string) => routeLimiter(deps, name);
  const oauth = oauthCookie(deps.config);
  const router = Router();

  router.post('/user/login', ...loginLimiters(deps), validate(LoginRequest), async (req, res) => {
    res.json(await login(db, inputOf(req, LoginRequest), meta(req)));
  });

  router.post('/user/register', limit('register'), validate(RegisterRequest), async (req, res) => {
    const input = inputOf(req, RegisterRequest);
    // The sign-up payload with an invitation token is a join (accounts 3).
    const result = input.token
      ? await join(db, { ...input, token: input.token }, meta(req))
      : await register(db, input, meta(req));
    res.status(201).json(result);
  });

  router.post('/user/join', limit('join'), validate(JoinRequest), async (req, res) => {
    res.status(201).json(await join(db, inputOf(req, JoinRequest), meta(req)));
  });

  router.post('/validate-user', limit('validate-user'), validate(ValidateUserRequest), async (req, res) => {
    res.json(await validateUser(db, inputOf(req, ValidateUserRequest)));
  });

  router.post(
    '/user/send_password_reset_token',
    limit('send-password-reset-token'),
    validate(ForgotPasswordRequest),
    async (req, res) => {
      res.json(await sendPasswordResetToken(deps, inputOf(req, ForgotPasswordRequest)));
    },
  );

  router.post(
    '/user/reset_password',
    limit('reset-password'),
    validate(ResetPasswordRequest),
    async (req, res) => {
      res.json(await resetPassword(deps, inputOf(req, ResetPasswordRequest)));
    },
  );

  // Google sign-in, second half: the web's /auth/google page trades the one-time code for a session,
  // from the browser that started sign-in (its cookie, sent by the same-origin fetch). The cookie is
  // used up either way.
  const google = limit('google-validate');
  router.post(
    ['/user/validate', '/user/validate-login'],
    google,
    validate(GoogleValidateRequest),
    async (req, res) => {
      const browserSecret = oauth.read(req);
      oauth.clear(res);
      const { code } = inputOf(req, GoogleValidateRequest);
      res.json(await validateGoogle(deps, { code, browserSecret }, meta(req)));
    },
  );

  // Also reachable as a base call, for a client that lost its tenant.
  router.post('/user/logout', auth(db), validate(LogoutRequest), async (req, res) => {
    await logout(db, actorOf(req));
    res.status(204).end();
  });

  return router;
}

/** Accounts, tenant calls (/api/t/:tenant, after auth and the tenant check). */
export function userTenantRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });

  // Refreshes the session user: permissions, tenant and paymentPlan as they are now.
  router.get('/user/info', validate(NoQuery, 'query'), (req, res) => {
    res.json(presentSessionUser(actorOf(req).user));
  });

  router.post('/user/logout', validate(LogoutRequest), async (req, res) => {
    await logout(deps.db, actorOf(req));
    res.status(204).end();
  });

  return router;
}
