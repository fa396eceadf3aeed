-- Embed tokens are stored only as their sha256 (hex, as packages/server/src/tokens.ts sha256): existing
-- tokens keep working, because their hash is computed here before the plain column goes.

-- AlterTable
ALTER TABLE "EmbedToken" ADD COLUMN "tokenHash" TEXT;

UPDATE "EmbedToken" SET "tokenHash" = encode(sha256(convert_to("token", 'UTF8')), 'hex');

ALTER TABLE "EmbedToken" ALTER COLUMN "tokenHash" SET NOT NULL;

-- DropIndex
DROP INDEX "EmbedToken_token_key";

-- AlterTable
ALTER TABLE "EmbedToken" DROP COLUMN "token";

-- CreateIndex
CREATE UNIQUE INDEX "EmbedToken_tokenHash_key" ON "EmbedToken"("tokenHash");
