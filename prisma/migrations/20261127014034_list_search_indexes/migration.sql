-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "Tenant_name_trgm_idx" ON "Tenant" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "User_name_trgm_idx" ON "User" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "User_email_trgm_idx" ON "User" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "User_tenantId_name_id_idx" ON "User"("tenantId", "name", "id");

-- CreateIndex
CREATE INDEX "User_createdAt_id_idx" ON "User"("createdAt", "id");

-- CreateIndex
CREATE INDEX "ModelViewDaily_userId_modelId_count_idx" ON "ModelViewDaily"("userId", "modelId", "count");

-- CreateIndex
CREATE INDEX "NewsletterSubscriber_email_trgm_idx" ON "NewsletterSubscriber" USING GIN ("email" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "NewsletterSubscriber_createdAt_id_idx" ON "NewsletterSubscriber"("createdAt", "id");
