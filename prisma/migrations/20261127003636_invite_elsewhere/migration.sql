-- AlterTable
ALTER TABLE "User" ADD COLUMN     "elsewhereEmail" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "User_tenantId_elsewhereEmail_key" ON "User"("tenantId", "elsewhereEmail");
