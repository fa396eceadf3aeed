import type { Router } from 'express';
import {
  AcceptInvitationRequest,
  InvitationQuery,
  InvitationRenewalRequest,
  InvitationView,
} from '@helix/shared/schemas/invitation';
import { MessageView } from '@helix/shared/schemas/role';
import { AuthResponse } from '@helix/shared/schemas/session';
import type { ServerDeps } from '@helix/server/deps';
import { acceptInvitation } from '@helix/server/invites/accept-invitation.command';
import { lookupInvitation } from '@helix/server/invites/invitation.query';
import { requestInvitationRenewal } from '@helix/server/invites/request-invitation-renewal.command';
import { routeLimiter } from '../http/rate-limit.ts';
import { inputOf } from '../http/validate.ts';
import { API, defineRoute, routerOf } from './define-route.ts';

/**
 * The invitation page's calls (base, no session; docs/invitation-page.md): what a link opens, asked
 * when the page opens, the join, and an expired link's request for a new one. Each is limited per
 * client address.
 */
const routes = [
  defineRoute({
    method: 'get',
    path: '/api/user/invitation',
    tag: 'Accounts',
    summary: 'What an invitation link opens (open, expired, used or invalid)',
    query: InvitationQuery,
    limited: true,
    ok: InvitationView,
    before: (deps) => [
      routeLimiter(deps, 'invitation-lookup', {
        limit: deps.config.INVITATION_RATE_LIMIT_MAX,
        windowSeconds: deps.config.RATE_LIMIT_WINDOW_SECONDS,
      }),
    ],
    handler: (deps) => async (req, res) => {
      // Personal (the invitee's e-mail): never kept by a cache.
      res.set('Cache-Control', 'no-store');
      res.json(await lookupInvitation(deps.db, inputOf(req, InvitationQuery).token));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/api/user/invitation/accept',
    tag: 'Accounts',
    summary: 'Accept an invitation: set name and password, signed in to the school',
    body: AcceptInvitationRequest,
    limited: true,
    errors: [409],
    ok: { status: 201, schema: AuthResponse },
    before: (deps) => [routeLimiter(deps, 'join')],
    handler: (deps) => async (req, res) => {
      const input = inputOf(req, AcceptInvitationRequest);
      res
        .status(201)
        .json(await acceptInvitation(deps.db, input, { userAgent: req.get('user-agent') ?? null }));
    },
  }),
  // An expired link's holder asks the school for a new invitation (one e-mail per invitation a day).
  defineRoute({
    method: 'post',
    path: '/api/user/invitation/renewal-request',
    tag: 'Accounts',
    summary: "An expired invitation's holder asks the school for a new one",
    body: InvitationRenewalRequest,
    limited: true,
    ok: MessageView,
    before: (deps) => [routeLimiter(deps, 'invitation-renewal')],
    handler: (deps) => async (req, res) => {
      res.json(await requestInvitationRenewal(deps, inputOf(req, InvitationRenewalRequest).token));
    },
  }),
];

export const invitationRoutes = (deps: ServerDeps): Router => routerOf(deps, API, routes);
