import type { Router } from 'express';
import { AuditFilters, AuditListQuery, AuditPage } from '@helix/shared/schemas/audit';
import type { ServerDeps } from '@helix/server/deps';
import { exportAuditEvents, listAuditEvents } from '@helix/server/audit/list-audit.query';
import { actorOf } from '../http/auth.ts';
import { inputOf } from '../http/validate.ts';
import { csv } from '../openapi/describe.ts';
import { defineRoute, routerOf, TENANT } from './define-route.ts';

const who = "the school's owner (own school), platform admins (every tenant)";

/**
 * The audit log (docs/audit-log.md), tenant calls: a school's owner reads the school's events, a
 * platform admin every tenant's (the audit policy decides; `tenant` filters one for an admin).
 */
const routes = [
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/audit',
    tag: 'Audit',
    summary: 'Audit events, one page',
    who,
    query: AuditListQuery,
    ok: AuditPage,
    handler: (deps) => async (req, res) => {
      res.set('Cache-Control', 'no-store');
      res.json(await listAuditEvents(deps.db, actorOf(req), inputOf(req, AuditListQuery)));
    },
  }),
  defineRoute({
    method: 'get',
    path: '/api/t/:tenant/audit/export',
    tag: 'Audit',
    summary: 'Audit events as CSV',
    who,
    query: AuditFilters,
    ok: csv('The events.'),
    handler: (deps) => async (req, res) => {
      const { filename, csv } = await exportAuditEvents(deps.db, actorOf(req), inputOf(req, AuditFilters));
      res.type('text/csv; charset=utf-8').attachment(filename).set('Cache-Control', 'no-store').send(csv);
    },
  }),
];

export const auditRoutes = (deps: ServerDeps): Router => routerOf(deps, TENANT, routes);
