-- CreateEnum
CREATE TYPE "EmbedLinkKind" AS ENUM ('share', 'embed');

-- AlterTable
ALTER TABLE "EmbedToken" ADD COLUMN     "kind" "EmbedLinkKind",
ADD COLUMN     "tokenSeed" TEXT;
