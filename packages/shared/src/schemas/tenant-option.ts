import { z } from 'zod';
import { MSG } from '../messages.ts';
import { MAX_ID } from './ids.ts';
import { LIST_PAGE_SIZE_MAX, listQuery, pageOf } from './list-query.ts';

/** A customer tenant as the model form's tenant picker and the statistics show it. */
export const TenantOptionView = z.object({
  id: z.number().int(),
  name: z.string(),
  domainPrefix: z.string(),
});
export type TenantOptionView = z.infer<typeof TenantOptionView>;

/**
 * GET /tenant/getAllTenants' query (platform admins; docs/lists-at-scale.md): search by name, sorted by
 * name. With `page` or `pageSize` the answer is one page (TenantOptionPage), without them every
 * matching tenant (the statistics and audit log filters). `ids` ("3,7,12") asks for those tenants
 * only: the picker's labels of the tenants already chosen.
 */
export const TENANT_OPTION_SORTS = ['name'] as const;
export const TenantOptionsQuery = listQuery(TENANT_OPTION_SORTS, { sort: 'name', order: 'asc' }).extend({
  ids: z
    .string({ error: MSG.listIdsInvalid })
    .regex(/^\d{1,10}(,\d{1,10})*$/, MSG.listIdsInvalid)
    .transform((text) => text.split(',').map(Number))
    .pipe(
      z
        .array(z.number().int().min(1, MSG.listIdsInvalid).max(MAX_ID, MSG.listIdsInvalid))
        .max(LIST_PAGE_SIZE_MAX, MSG.listIdsInvalid),
    )
    .optional(),
});
export type TenantOptionsQuery = z.input<typeof TenantOptionsQuery>;
export type TenantOptionsQueryInput = z.output<typeof TenantOptionsQuery>;

export const TenantOptionPage = pageOf(TenantOptionView);
export type TenantOptionPage = z.infer<typeof TenantOptionPage>;
