import { Router } from 'express';
import {
  AcceptInvitationRequest,
  InvitationQuery,
  InvitationRenewalRequest,
} from '@helix/shared/schemas/invitation';
import type { ServerDeps } from '@helix/server/deps';
import { acceptInvitation } from '@helix/server/invites/accept-invitation.command';
import { lookupInvitation } from '@helix/server/invites/invitation.query';
import { requestInvitationRenewal } from '@helix/server/invites/request-invitation-renewal.command';
import { routeLimiter } from '../http/rate-limit.ts';
import { inputOf, validate } from '../http/validate.ts';

/**
 * The invitation page's calls (base, no session; docs/invitation-page.md): what a link opens, asked
 * when the page opens, the join, and an expired link's request for a new one. Each is limited per
 * client address.
 */
export function invitationRoutes(deps: ServerDeps): Router {
  const router = Router();
  const lookupLimit = routeLimiter(deps, 'invitation-lookup', {
    limit: deps.config.INVITATION_RATE_LIMIT_MAX,
    windowSeconds: deps.config.RATE_LIMIT_WINDOW_SECONDS,
  });

  router.get('/user/invitation', lookupLimit, validate(InvitationQuery, 'query'), async (req, res) => {
    // Personal (the invitee's e-mail): never kept by a cache.
    res.set('Cache-Control', 'no-store');
    res.json(await lookupInvitation(deps.db, inputOf(req, InvitationQuery).token));
  });

  router.post(
    '/user/invitation/accept',
    routeLimiter(deps, 'join'),
    validate(AcceptInvitationRequest),
    async (req, res) => {
      const input = inputOf(req, AcceptInvitationRequest);
      res
        .status(201)
        .json(await acceptInvitation(deps.db, input, { userAgent: req.get('user-agent') ?? null }));
    },
  );

  // An expired link's holder asks the school for a new invitation (one e-mail per invitation a day).
  router.post(
    '/user/invitation/renewal-request',
    routeLimiter(deps, 'invitation-renewal'),
    validate(InvitationRenewalRequest),
    async (req, res) => {
      res.json(await requestInvitationRenewal(deps, inputOf(req, InvitationRenewalRequest).token));
    },
  );

  return router;
}
