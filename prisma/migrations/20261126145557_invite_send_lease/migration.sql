-- AlterTable
ALTER TABLE "Invite" ADD COLUMN     "sendingUntil" TIMESTAMP(3),
ADD COLUMN     "tokenNonce" TEXT;

-- The worker now counts a batch's settled rows as it settles them and marks the batch done with the
-- last one (before, the first poll that found every row settled did). Batches still open start from
-- what their rows say.
UPDATE "BulkInviteBatch" AS b SET
  "processed" = (SELECT count(*) FROM "Invite" AS i WHERE i."batchId" = b.id AND i."sentAt" IS NOT NULL),
  "failed" = (SELECT count(*) FROM "Invite" AS i WHERE i."batchId" = b.id AND i."failedAt" IS NOT NULL)
WHERE b."status" <> 'done';
UPDATE "BulkInviteBatch" SET "status" = 'done', "finishedAt" = CURRENT_TIMESTAMP
WHERE "status" <> 'done' AND "processed" + "failed" >= "total";
