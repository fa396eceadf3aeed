-- AlterEnum
ALTER TYPE "ViewSource" ADD VALUE 'lti';

-- AlterTable
ALTER TABLE "ModelViewDaily" ADD COLUMN     "ltiContextId" INTEGER;

-- CreateTable
CREATE TABLE "LtiPlatform" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "issuer" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "deploymentIds" TEXT[],
    "authLoginUrl" TEXT NOT NULL,
    "tokenUrl" TEXT NOT NULL,
    "keysetUrl" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LtiPlatform_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LtiToolKey" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "kid" TEXT NOT NULL,
    "publicJwk" JSONB NOT NULL,
    "privateKeyEnc" TEXT NOT NULL,
    "activeFor" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retiredAt" TIMESTAMP(3),

    CONSTRAINT "LtiToolKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "LtiContext" (
    "id" SERIAL NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "platformId" INTEGER NOT NULL,
    "contextId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "firstLaunchAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastLaunchAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LtiContext_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "LtiPlatform_tenantId_idx" ON "LtiPlatform"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "LtiPlatform_issuer_clientId_key" ON "LtiPlatform"("issuer", "clientId");

-- CreateIndex
CREATE UNIQUE INDEX "LtiToolKey_kid_key" ON "LtiToolKey"("kid");

-- CreateIndex
CREATE UNIQUE INDEX "LtiToolKey_activeFor_key" ON "LtiToolKey"("activeFor");

-- CreateIndex
CREATE INDEX "LtiToolKey_tenantId_createdAt_idx" ON "LtiToolKey"("tenantId", "createdAt");

-- CreateIndex
CREATE INDEX "LtiContext_tenantId_idx" ON "LtiContext"("tenantId");

-- CreateIndex
CREATE UNIQUE INDEX "LtiContext_platformId_contextId_key" ON "LtiContext"("platformId", "contextId");

-- CreateIndex
CREATE INDEX "ModelViewDaily_ltiContextId_count_idx" ON "ModelViewDaily"("ltiContextId", "count");

-- AddForeignKey
ALTER TABLE "ModelViewDaily" ADD CONSTRAINT "ModelViewDaily_ltiContextId_fkey" FOREIGN KEY ("ltiContextId") REFERENCES "LtiContext"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LtiPlatform" ADD CONSTRAINT "LtiPlatform_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LtiToolKey" ADD CONSTRAINT "LtiToolKey_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LtiContext" ADD CONSTRAINT "LtiContext_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LtiContext" ADD CONSTRAINT "LtiContext_platformId_fkey" FOREIGN KEY ("platformId") REFERENCES "LtiPlatform"("id") ON DELETE CASCADE ON UPDATE CASCADE;
