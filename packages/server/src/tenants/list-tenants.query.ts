import type { TenantOption } from '@helix/shared/schemas/model';
import type { Db } from '../db.ts';
import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import type { Actor } from '../sessions/session.service.ts';

/** GET /tenant/getAllTenants (platform admins): the customer tenants, for the tenant picker and /stats. */
export async function listCustomerTenants(db: Db, actor: Actor): Promise<TenantOption[]> {
  if (!isPlatformAdmin(actor)) throw AppError.forbidden();
  return db.tenant.findMany({
    where: { isPlatform: false },
    select: { id: true, name: true, domainPrefix: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
}
