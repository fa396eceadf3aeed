-- AlterTable
ALTER TABLE "EmbedToken" ADD COLUMN     "expiresAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "EmbedToken_tenantId_createdAt_idx" ON "EmbedToken"("tenantId", "createdAt");
