-- AlterTable
ALTER TABLE "EmbedToken" ADD COLUMN     "transparentBackground" BOOLEAN NOT NULL DEFAULT false;
