import { ERROR_CODES } from '@helix/shared/error-codes';
import { MSG } from '@helix/shared';
import {
  blockingRows,
  checkInviteRows,
  rowsToSend,
  type BulkInviteRequest,
  type BulkInviteStarted,
} from '@helix/shared/schemas/invite';
import type { z } from 'zod';
import { conflictFromUniqueViolation } from '../accounts/register.command.ts';
import type { ServerDeps } from '../deps.ts';
import { AppError } from '../errors.ts';
import type { Actor } from '../sessions/session.service.ts';
import { authorizeInvite } from './invite.policy.ts';
import { queueBatchDispatch } from './invite-jobs.ts';
import { addressOwners } from './invite-elsewhere.ts';
import { createInvitedUsers } from './invited-users.ts';
import { inviteExpiry, usersLimitExceeded } from './invite-user.command.ts';
import { lockSeats } from './seats.ts';
import { afterCommit, withTransaction } from '../db/transaction.ts';

/** Field errors for at most this many rows: enough to point at the problems, not a megabyte of them. */
const MAX_ROW_ERRORS = 200;

/**
 * POST /user/bulk-invite. The browser's reading of the file is not trusted: every row is checked again
 * here (missing name, invalid e-mail, over-long cells, addresses that are already users of this tenant;
 * an address with an account elsewhere is invited like a new one, docs/invite-privacy.md); duplicates of
 * an earlier row are dropped. Then, with the subscription row locked, the seat limit: the rows plus the
 * tenant's users must stay within userLimit ('Users Limit Exceeds'). In one transaction the batch
 * (BulkInviteBatch), the invited users and their invitations are created; after the commit one
 * dispatch job starts the sending (see apps/worker/src/bulk-invite).
 */
export async function bulkInvite(
  deps: Pick<ServerDeps, 'db' | 'queue' | 'config' | 'logger'>,
  actor: Actor,
  input: z.output<typeof BulkInviteRequest>,
  now = new Date(),
): Promise<BulkInviteStarted> {
  authorizeInvite(actor, 'bulk');
  const firstPass = checkInviteRows(input.users);
  const invalid = blockingRows(firstPass);
  if (invalid.length > 0) {
    const errors: Record<string, string> = {};
    for (const row of invalid.slice(0, MAX_ROW_ERRORS)) {
      errors[`users.${row.index}`] = row.problemText.join(', ');
    }
    throw new AppError(ERROR_CODES.bulkRowsInvalid, { status: 422, message: MSG.bulkRowsInvalid, errors });
  }
  const candidates = rowsToSend(firstPass);
  const duplicates = firstPass.length - candidates.length;

  let batchId: number;
  let total: number;
  try {
    ({ batchId, total } = await withTransaction(
      deps.db,
      async (tx) => {
        const seats = await lockSeats(tx, actor.tenant.id);
        // One array parameter instead of 10,000 (e-mails are stored lower-cased; the index answers).
        const owners = await addressOwners(
          tx,
          actor.tenant.id,
          candidates.map((r) => r.email),
        );
        if (owners.own.size > 0) {
          // The spec's answer: the existing addresses of this tenant, to remove before retrying. An
          // address with an account elsewhere is sent like a new one (docs/invite-privacy.md).
          const errors = Object.fromEntries([...owners.own].map((email) => [email, MSG.bulkRowExisting]));
          throw new AppError(ERROR_CODES.bulkExistingUsers, {
            status: 409,
            message: MSG.bulkExistingUsers,
            errors,
          });
        }
        if (seats.used + candidates.length > seats.limit) throw usersLimitExceeded();
        const rows = candidates.map((r) => ({ name: r.name, email: r.email, note: r.note }));
        const batch = await tx.bulkInviteBatch.create({
          data: {
            tenantId: actor.tenant.id,
            createdById: actor.user.id,
            status: 'processing',
            rows,
            total: rows.length,
          },
          select: { id: true },
        });
        await createInvitedUsers(tx, {
          tenantId: actor.tenant.id,
          invitedById: actor.user.id,
          rows: rows.map((r) => ({ ...r, elsewhere: owners.elsewhere.has(r.email) })),
          expiresAt: inviteExpiry(deps, now),
          batchId: batch.id,
        });
        return { batchId: batch.id, total: rows.length };
      },
      { timeoutMs: 60_000, maxWaitMs: 10_000 },
    ));
  } catch (error) {
    throw conflictFromUniqueViolation(error) ?? error;
  }
  await afterCommit(() => queueBatchDispatch(deps, batchId));
  return { message: MSG.bulkSending, batchId, total, duplicates };
}
