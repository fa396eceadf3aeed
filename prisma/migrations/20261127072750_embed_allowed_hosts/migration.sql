-- AlterTable
ALTER TABLE "EmbedToken" ADD COLUMN     "allowedHosts" TEXT[] DEFAULT ARRAY[]::TEXT[];
