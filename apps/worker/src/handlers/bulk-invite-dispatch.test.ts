import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVITE_ROWS_PER_JOB } from '@helix/shared';
import type { Db } from '@helix/server/db';
import { createTestDb } from '@helix/server/testing/test-db';
import { createInvitedUsers } from '@helix/server/invites/invited-users';
import type { JobQueue } from '@helix/server/queue/job-queue';
import { createTenant, createUser, seedRoles } from '@helix/server/testing/factories';
import { createTestDatabase, dropDatabase } from '@helix/stack/test-db';
import { bulkInviteDispatchHandler } from './bulk-invite-dispatch.handler.ts';

/**
 * bulk-invite-dispatch against a real PostgreSQL: the runs of rows it adds (the queue records them), the
 * same on every dispatch so BullMQ's jobId keeps one job per run.
 */
let database: { name: string; url: string };
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase('helix_worker_dispatch');
  db = createTestDb(database.url);
  await seedRoles(db);
});
afterAll(async () => {
  await db?.$disconnect();
  if (database) await dropDatabase(database.name);
});

function recordingQueue() {
  const runs: Array<{ name: string; jobId: string; inviteIds: number[] }> = [];
  const queue = {
    enqueueMany: (
      job: { name: string },
      items: Array<{ jobId: string; payload: { inviteIds: number[] } }>,
    ) => {
      for (const item of items)
        runs.push({ name: job.name, jobId: item.jobId, inviteIds: item.payload.inviteIds });
      return Promise.resolve();
    },
  } as unknown as JobQueue;
  return { runs, queue };
}

describe('bulk-invite-dispatch', () => {
  it('adds one rows job per run of the batch with a row still open, cut the same way every time', async () => {
    const tenant = await createTenant(db);
    const owner = await createUser(db, { tenant });
    const count = INVITE_ROWS_PER_JOB * 2 + 5;
    const batch = await db.bulkInviteBatch.create({
      data: { tenantId: tenant.id, createdById: owner.id, status: 'processing', rows: [], total: count },
    });
    const created = await createInvitedUsers(db, {
      tenantId: tenant.id,
      invitedById: owner.id,
      rows: Array.from({ length: count }, (_, i) => ({ name: `D ${i}`, email: `d${i}@example.test` })),
      expiresAt: new Date(Date.now() + 3600_000),
      batchId: batch.id,
    });
    const ids = created.map((c) => c.inviteId).sort((a, b) => a - b);
    const job = { batchId: batch.id };
    const run = async () => {
      const recorded = recordingQueue();
      const answer = await bulkInviteDispatchHandler({ db, queue: recorded.queue })(job, {} as never);
      return { ...recorded, answer };
    };

    const first = await run();
    expect(first.answer).toEqual({ added: count });
    expect(first.runs).toEqual([
      {
        name: 'bulk-invite-rows',
        jobId: `invite-rows-${ids[0]}`,
        inviteIds: ids.slice(0, INVITE_ROWS_PER_JOB),
      },
      {
        name: 'bulk-invite-rows',
        jobId: `invite-rows-${ids[INVITE_ROWS_PER_JOB]}`,
        inviteIds: ids.slice(INVITE_ROWS_PER_JOB, 2 * INVITE_ROWS_PER_JOB),
      },
      {
        name: 'bulk-invite-rows',
        jobId: `invite-rows-${ids[2 * INVITE_ROWS_PER_JOB]}`,
        inviteIds: ids.slice(2 * INVITE_ROWS_PER_JOB),
      },
    ]);

    // The first run settled, a row of the second sent and one failed: a second dispatch keeps the
    // runs' names (BullMQ then adds nothing for a run whose job exists) and lists only open rows.
    await db.invite.updateMany({
      where: { id: { in: ids.slice(0, INVITE_ROWS_PER_JOB) } },
      data: { sentAt: new Date() },
    });
    await db.invite.update({ where: { id: ids[INVITE_ROWS_PER_JOB]! }, data: { sentAt: new Date() } });
    await db.invite.update({ where: { id: ids[INVITE_ROWS_PER_JOB + 1]! }, data: { failedAt: new Date() } });
    const second = await run();
    expect(second.runs.map((r) => r.jobId)).toEqual(first.runs.slice(1).map((r) => r.jobId));
    expect(second.runs[0]!.inviteIds).toEqual(ids.slice(INVITE_ROWS_PER_JOB + 2, 2 * INVITE_ROWS_PER_JOB));
    expect(second.answer).toEqual({ added: count - INVITE_ROWS_PER_JOB - 2 });
  });
});
