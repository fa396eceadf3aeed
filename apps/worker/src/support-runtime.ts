import type { Logger } from 'pino';
import type { JobQueue } from '@helix/server/queue/job-queue';
import { supportJobId } from '@helix/server/support/create-support-request.command';
import { unsentSupportRequestIds } from '@helix/server/support/send-support-request';
import { JOBS } from '@helix/shared';
import type { Db } from '@helix/server/db';

/**
 * At start, queues send-support-request again for every request whose e-mails have not all gone out: a
 * request the API stored while Redis was unreachable (so its job was never added) is mailed now. A
 * request whose job is still waiting, delayed or failed keeps that job (same jobId: the add is a no-op).
 */
export async function requeueUnsentSupportRequests(db: Db, queue: JobQueue, logger: Logger): Promise<number> {
  const ids = await unsentSupportRequestIds(db);
  if (ids.length === 0) return 0;
  await queue.enqueueMany(
    JOBS.sendSupportRequest,
    ids.map((id) => ({ payload: { requestId: id }, jobId: supportJobId(id) })),
  );
  logger.info({ count: ids.length }, 'support requests queued again');
  return ids.length;
}
