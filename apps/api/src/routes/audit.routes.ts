import { Router } from 'express';
import { AuditFilters, AuditListQuery } from '@helix/shared/schemas/audit';
import type { ServerDeps } from '@helix/server/deps';
import { exportAuditEvents, listAuditEvents } from '@helix/server/audit/list-audit.query';
import { actorOf } from '../http/auth.ts';
import { inputOf, validate } from '../http/validate.ts';

/**
 * The audit log (docs/audit-log.md), tenant calls: a school's owner reads the school's events, a
 * platform admin every tenant's (the audit policy decides; `tenant` filters one for an admin).
 */
export function auditRoutes(deps: ServerDeps): Router {
  const router = Router({ mergeParams: true });

  router.get('/audit', validate(AuditListQuery, 'query'), async (req, res) => {
    res.set('Cache-Control', 'no-store');
    res.json(await listAuditEvents(deps.db, actorOf(req), inputOf(req, AuditListQuery)));
  });

  router.get('/audit/export', validate(AuditFilters, 'query'), async (req, res) => {
    const { filename, csv } = await exportAuditEvents(deps.db, actorOf(req), inputOf(req, AuditFilters));
    res.type('text/csv; charset=utf-8').attachment(filename).set('Cache-Control', 'no-store').send(csv);
  });

  return router;
}
