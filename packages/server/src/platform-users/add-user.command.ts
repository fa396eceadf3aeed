import { MSG } from '@helix/shared';
import type { AddUserRequest, AddUserResponse } from '@helix/shared/schemas/platform-user';
import type { z } from 'zod';
import { assertAvailable, conflictFromUniqueViolation } from '../accounts/register.command.ts';
import { createCustomerTenant } from '../accounts/customer-tenant.ts';
import { hashPassword } from '../auth/password.ts';
import { grantPlatformSubscription } from '../billing/grant-subscription.command.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorize } from './platform-user.policy.ts';
import { withTransaction } from '../db/transaction.ts';

type AddUserInput = z.output<typeof AddUserRequest>;

/**
 * /users/add-user: a customer tenant and its owner, made as sign-up makes them (createCustomerTenant:
 * default branding, the Admin role, the newsletter when `emailstatus` is ticked), then a subscription
 * on the chosen plan granted by the platform (billing's grantPlatformSubscription: coupon, no trial).
 * When the grant fails the new tenant is removed again, so a retry with the same e-mail works.
 */
export async function addUser(deps: ServerDeps, actor: Actor, input: AddUserInput): Promise<AddUserResponse> {
  authorize(actor, 'add');
  const { db } = deps;
  const plan = await db.plan.findFirst({ where: { id: input.planId, status: true } });
  if (!plan) throw AppError.field('planId', MSG.planNotFound, 400);
  if (plan.planType !== input.subscription) throw AppError.field('planId', MSG.planTypeMismatch, 400);
  await assertAvailable(db, { email: input.email, userName: input.user_name });
  const passwordHash = await hashPassword(input.password);

  let created;
  try {
    created = await withTransaction(db, (tx) =>
      createCustomerTenant(tx, {
        name: input.name,
        ...(input.tenantName ? { tenantName: input.tenantName } : {}),
        userName: input.user_name,
        email: input.email,
        passwordHash,
        emailStatus: input.emailstatus,
      }),
    );
  } catch (error) {
    throw conflictFromUniqueViolation(error) ?? error;
  }
  const { tenant, user } = created;
  try {
    await grantPlatformSubscription(deps, { tenantId: tenant.id, planId: plan.id, quantity: input.quantity });
  } catch (error) {
    await db.tenant.delete({ where: { id: tenant.id } }).catch(() => undefined);
    throw error;
  }
  return { message: MSG.userAdded, user: { id: user.id, email: user.email, tenant: tenant.domainPrefix } };
}
