-- CreateTable
CREATE TABLE "OfflineView" (
    "key" TEXT NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "userId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "viewedAt" TIMESTAMP(3) NOT NULL,
    "outcome" TEXT NOT NULL DEFAULT 'pending',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OfflineView_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "OfflineView_tenantId_createdAt_idx" ON "OfflineView"("tenantId", "createdAt");

-- AddForeignKey
ALTER TABLE "OfflineView" ADD CONSTRAINT "OfflineView_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OfflineView" ADD CONSTRAINT "OfflineView_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;
