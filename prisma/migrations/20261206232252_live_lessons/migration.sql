-- CreateEnum
CREATE TYPE "LessonStatus" AS ENUM ('live', 'ended');

-- CreateEnum
CREATE TYPE "LessonEndedReason" AS ENUM ('ended', 'idle');

-- AlterTable
ALTER TABLE "Plan" ADD COLUMN     "liveLessons" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "Lesson" (
    "id" TEXT NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "modelId" INTEGER NOT NULL,
    "teacherId" INTEGER NOT NULL,
    "code" TEXT NOT NULL,
    "status" "LessonStatus" NOT NULL DEFAULT 'live',
    "endedReason" "LessonEndedReason",
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),
    "ltiContextId" INTEGER,

    CONSTRAINT "Lesson_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Lesson_teacherId_modelId_status_idx" ON "Lesson"("teacherId", "modelId", "status");

-- CreateIndex
CREATE INDEX "Lesson_code_status_idx" ON "Lesson"("code", "status");

-- CreateIndex
CREATE INDEX "Lesson_tenantId_startedAt_idx" ON "Lesson"("tenantId", "startedAt");

-- AddForeignKey
ALTER TABLE "Lesson" ADD CONSTRAINT "Lesson_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Lesson" ADD CONSTRAINT "Lesson_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Lesson" ADD CONSTRAINT "Lesson_teacherId_fkey" FOREIGN KEY ("teacherId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Lesson" ADD CONSTRAINT "Lesson_ltiContextId_fkey" FOREIGN KEY ("ltiContextId") REFERENCES "LtiContext"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Data (databases seeded before this migration; a new database gets the same from prisma/seed.ts):
-- the educator and enterprise plans sell live lessons, and the built-in Admin role leads them.
UPDATE "Plan" SET "liveLessons" = true WHERE "family" IN ('educator', 'enterprise');

INSERT INTO "Permission" ("name")
SELECT 'Lesson.lead' WHERE EXISTS (SELECT 1 FROM "Role" WHERE "name" = 'Admin')
ON CONFLICT ("name") DO NOTHING;

INSERT INTO "RolePermission" ("roleId", "permissionId")
SELECT r."id", p."id" FROM "Role" r, "Permission" p WHERE r."name" = 'Admin' AND p."name" = 'Lesson.lead'
ON CONFLICT DO NOTHING;
