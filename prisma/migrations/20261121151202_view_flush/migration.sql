-- CreateTable
CREATE TABLE "ViewFlush" (
    "id" TEXT NOT NULL,
    "appliedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ViewFlush_pkey" PRIMARY KEY ("id")
);
