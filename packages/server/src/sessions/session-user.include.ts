import type { Prisma } from '../db.ts';

/** Everything the session user presenter and the permission rule read, loaded in one query. */
export const sessionUserInclude = {
  tenant: {
    include: {
      subscription: { include: { plan: { include: { permissions: { include: { permission: true } } } } } },
    },
  },
  roles: { include: { role: { include: { permissions: { include: { permission: true } } } } } },
} satisfies Prisma.UserInclude;

export type SessionUserRecord = Prisma.UserGetPayload<{ include: typeof sessionUserInclude }>;
export type TenantRecord = SessionUserRecord['tenant'];
export type SubscriptionRecord = NonNullable<TenantRecord['subscription']>;
