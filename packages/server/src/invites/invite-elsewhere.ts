import { randomBytes } from 'node:crypto';
import type { Prisma } from '../db.ts';

/**
 * Invites of addresses that have an account at another tenant (issue 18, point 2; the decision is in
 * docs/invite-privacy.md). The inviting school is answered as for a new address and gets a pending
 * invited user like any other; the row's `email` is a placeholder under the reserved .invalid domain
 * (an address belongs to one account) and `elsewhereEmail` holds the address the school typed. The
 * worker mails that address a notice instead of an invitation (send-invite.ts).
 */
export const ELSEWHERE_DOMAIN = 'elsewhere.invalid';

/** A unique placeholder that no sign-up, login or reset can use (.invalid never resolves). */
export const elsewherePlaceholder = (): string =>
  `invite-${randomBytes(12).toString('hex')}@${ELSEWHERE_DOMAIN}`;

/** The address the tenant knows a user by: the invited address for an invite of an address elsewhere. */
export const shownEmail = (user: { email: string; elsewhereEmail: string | null }): string =>
  user.elsewhereEmail ?? user.email;

export interface AddressOwners {
  /** Addresses of the actor's own tenant (users, invited users, invites of addresses elsewhere). */
  own: Set<string>;
  /** Addresses with an account at another tenant: never named to the inviter. */
  elsewhere: Set<string>;
}

/**
 * Which of these (lower-cased) addresses belong to the tenant and which to an account elsewhere; an
 * address in neither set is new. One statement with one array parameter (10,000 rows of a bulk invite).
 */
export async function addressOwners(
  tx: Prisma.TransactionClient,
  tenantId: number,
  emails: readonly string[],
): Promise<AddressOwners> {
  const rows = await tx.$queryRaw<Array<{ address: string; own: boolean }>>`
    SELECT email AS address, ("tenantId" = ${tenantId}) AS own
      FROM "User" WHERE email = ANY(${[...emails]}::text[])
    UNION ALL
    SELECT "elsewhereEmail" AS address, true AS own
      FROM "User" WHERE "tenantId" = ${tenantId} AND "deletedAt" IS NULL
        AND "elsewhereEmail" = ANY(${[...emails]}::text[])`;
  const own = new Set(rows.filter((r) => r.own).map((r) => r.address));
  const elsewhere = new Set(rows.filter((r) => !r.own && !own.has(r.address)).map((r) => r.address));
  return { own, elsewhere };
}
