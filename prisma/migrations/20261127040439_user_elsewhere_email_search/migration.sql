-- CreateIndex
CREATE INDEX "User_elsewhereEmail_trgm_idx" ON "User" USING GIN ("elsewhereEmail" gin_trgm_ops);
