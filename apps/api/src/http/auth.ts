import type { Request, RequestHandler } from 'express';
import type { Permission } from '@helix/shared';
import { TenantParams } from '@helix/shared/schemas/tenant';
import { AppError } from '@helix/server';
import type { Db } from '@helix/server/db';
import { authenticate, type Actor } from '@helix/server/sessions/session.service';

const bearer = (req: Request): string | undefined => {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.get('authorization') ?? '');
  return match?.[1];
};

/**
 * Bearer token to req.actor. No, unknown, expired or logged-out token: 401 'Unauthorized'; a session
 * replaced by a newer login: 401 'Invalid token' (the multiple-login popup).
 */
export function auth(db: Db): RequestHandler {
  return async (req, _res, next) => {
    req.actor = await authenticate(db, bearer(req));
    next();
  };
}

/**
 * A public call that also serves a signed-in caller (a pupil joining a lesson): a valid session sets
 * req.actor as auth() does; none, or one that is no longer valid, leaves the caller a guest.
 */
export function optionalAuth(db: Db): RequestHandler {
  return async (req, _res, next) => {
    const token = bearer(req);
    if (token) {
      req.actor = await authenticate(db, token).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 401) return undefined;
        throw error;
      });
    }
    next();
  };
}

/** The actor of an authenticated route (auth() ran before). */
export function actorOf(req: Request): Actor {
  if (!req.actor) throw AppError.unauthorized();
  return req.actor;
}

/** Every listed permission is needed, else 403. */
export function can(...permissions: Permission[]): RequestHandler {
  return (req, _res, next) => {
    const actor = actorOf(req);
    if (!permissions.every((p) => actor.permissions.includes(p))) throw AppError.forbidden();
    next();
  };
}

/**
 * /api/t/:tenant: the server takes the tenant from the session; a path tenant that is not the caller's
 * is the same 404 as a tenant that does not exist.
 */
export function tenantParam(): RequestHandler {
  return (req, _res, next) => {
    const parsed = TenantParams.safeParse({ tenant: req.params.tenant });
    if (!parsed.success || parsed.data.tenant !== actorOf(req).tenant.domainPrefix) throw AppError.notFound();
    next();
  };
}
