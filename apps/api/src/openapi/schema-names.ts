import { zodToOpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import * as abilities from '@helix/shared/schemas/abilities';
import * as account from '@helix/shared/schemas/account';
import * as audit from '@helix/shared/schemas/audit';
import * as billing from '@helix/shared/schemas/billing';
import * as branding from '@helix/shared/schemas/branding';
import * as embedLink from '@helix/shared/schemas/embed-link';
import * as invitation from '@helix/shared/schemas/invitation';
import * as invite from '@helix/shared/schemas/invite';
import * as lessons from '@helix/shared/lessons';
import * as listQuery from '@helix/shared/schemas/list-query';
import * as model from '@helix/shared/schemas/model';
import * as newsletter from '@helix/shared/schemas/newsletter';
import * as pinnedModel from '@helix/shared/schemas/pinned-model';
import * as plan from '@helix/shared/schemas/plan';
import * as platformUser from '@helix/shared/schemas/platform-user';
import * as profile from '@helix/shared/schemas/profile';
import * as role from '@helix/shared/schemas/role';
import * as session from '@helix/shared/schemas/session';
import * as support from '@helix/shared/schemas/support';
import * as tenantOption from '@helix/shared/schemas/tenant-option';
import * as tenantUser from '@helix/shared/schemas/tenant-user';
import * as tenant from '@helix/shared/schemas/tenant';

/**
 * The shared schemas by their export names: a schema the reference uses, directly or inside another,
 * becomes `#/components/schemas/<ExportName>`, so the reference names answers as the code does. The
 * names live in zod-to-openapi's own registry (no change to zod's prototype or global registry, which
 * the web app shares).
 */
const schemaNames = new Map<z.ZodType, string>();
const taken = new Set<string>();
for (const module of [
  abilities,
  account,
  audit,
  billing,
  branding,
  embedLink,
  invitation,
  invite,
  lessons,
  listQuery,
  model,
  newsletter,
  pinnedModel,
  plan,
  platformUser,
  profile,
  role,
  session,
  support,
  tenantOption,
  tenantUser,
  tenant,
] as Record<string, unknown>[]) {
  for (const [name, value] of Object.entries(module)) {
    if (!(value instanceof z.ZodType) || schemaNames.has(value) || taken.has(name)) continue;
    schemaNames.set(value, name);
    taken.add(name);
    const current = zodToOpenAPIRegistry.get(value);
    zodToOpenAPIRegistry.add(value, { ...current, _internal: { ...current?._internal, refId: name } });
  }
}
