import type { TenantOption } from '@helix/shared/schemas/model';
import type { TenantOptionPage, TenantOptionsQueryInput } from '@helix/shared/schemas/tenant-option';
import type { Db, Prisma } from '../db.ts';
import { AppError } from '../errors.ts';
import { isPlatformAdmin } from '../models/model.policy.ts';
import { likeLiteral } from '../models/list-models.query.ts';
import type { Actor } from '../sessions/session.service.ts';

const select = { id: true, name: true, domainPrefix: true } satisfies Prisma.TenantSelect;

/** Customer tenants matching the query: by name (trigram index), or the given ids. */
function whereOf(q: Partial<TenantOptionsQueryInput>): Prisma.TenantWhereInput {
  return {
    isPlatform: false,
    ...(q.search ? { name: { contains: likeLiteral(q.search), mode: 'insensitive' } } : {}),
    ...(q.ids ? { id: { in: q.ids } } : {}),
  };
}

const orderOf = (q: Partial<TenantOptionsQueryInput>): Prisma.TenantOrderByWithRelationInput[] => {
  const order = q.order ?? 'asc';
  return [{ name: order }, { id: order }];
};

/**
 * GET /tenant/getAllTenants (platform admins) without paging: every customer tenant matching the
 * search, by name (the statistics and audit log filters).
 */
export async function listCustomerTenants(
  db: Db,
  actor: Actor,
  q: Partial<TenantOptionsQueryInput> = {},
): Promise<TenantOption[]> {
  if (!isPlatformAdmin(actor)) throw AppError.forbidden();
  return db.tenant.findMany({ where: whereOf(q), select, orderBy: orderOf(q) });
}

/** GET /tenant/getAllTenants?page=… (the model form's tenant picker): one page and the total. */
export async function pageCustomerTenants(
  db: Db,
  actor: Actor,
  q: TenantOptionsQueryInput,
): Promise<TenantOptionPage> {
  if (!isPlatformAdmin(actor)) throw AppError.forbidden();
  const where = whereOf(q);
  const [rows, total] = await Promise.all([
    db.tenant.findMany({
      where,
      select,
      orderBy: orderOf(q),
      skip: (q.page - 1) * q.pageSize,
      take: q.pageSize,
    }),
    db.tenant.count({ where }),
  ]);
  return { rows, total, page: q.page, pageSize: q.pageSize };
}
