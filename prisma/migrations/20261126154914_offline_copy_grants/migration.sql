-- AlterTable
ALTER TABLE "OfflineView" ADD COLUMN     "copyId" TEXT,
ADD COLUMN     "windowStart" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "OfflineCopyGrant" (
    "id" TEXT NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "deviceId" TEXT NOT NULL,
    "issuedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "renewedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OfflineCopyGrant_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OfflineCopyGrant_tenantId_idx" ON "OfflineCopyGrant"("tenantId");

-- CreateIndex
CREATE INDEX "OfflineCopyGrant_modelId_idx" ON "OfflineCopyGrant"("modelId");

-- CreateIndex
CREATE UNIQUE INDEX "OfflineCopyGrant_userId_deviceId_modelId_key" ON "OfflineCopyGrant"("userId", "deviceId", "modelId");

-- CreateIndex
CREATE UNIQUE INDEX "OfflineView_userId_modelId_windowStart_key" ON "OfflineView"("userId", "modelId", "windowStart");

-- AddForeignKey
ALTER TABLE "OfflineCopyGrant" ADD CONSTRAINT "OfflineCopyGrant_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OfflineCopyGrant" ADD CONSTRAINT "OfflineCopyGrant_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OfflineCopyGrant" ADD CONSTRAINT "OfflineCopyGrant_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;
