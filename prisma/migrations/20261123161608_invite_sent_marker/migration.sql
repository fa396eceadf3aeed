-- AlterTable
ALTER TABLE "Invite" ADD COLUMN     "failReason" TEXT,
ADD COLUMN     "failedAt" TIMESTAMP(3),
ADD COLUMN     "sentAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Invite_batchId_idx" ON "Invite"("batchId");

-- CreateIndex
CREATE INDEX "Invite_userId_idx" ON "Invite"("userId");
