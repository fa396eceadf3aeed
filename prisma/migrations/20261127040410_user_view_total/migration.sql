-- AlterTable
ALTER TABLE "User" ADD COLUMN     "viewTotal" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "User_viewTotal_id_idx" ON "User"("viewTotal", "id");

-- CreateIndex
CREATE INDEX "ModelViewDaily_embedTokenId_count_idx" ON "ModelViewDaily"("embedTokenId", "count");

-- User.viewTotal: each user's views of live models (every tenant's), kept in the same transaction as
-- every write of ModelViewDaily (the views flush, the direct path while Redis is down, cascades) and
-- every delete or restore of a model, by the triggers below (docs/lists-at-scale.md).

-- Views added or taken away by one statement on ModelViewDaily, per user, counted only for live
-- models; the users' rows are locked in id order first, so concurrent flushes cannot deadlock here.
CREATE FUNCTION "user_view_total_apply"(deltas jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "User" u
    WHERE u."id" IN (SELECT (d->>'userId')::int FROM jsonb_array_elements(deltas) d)
    ORDER BY u."id" FOR NO KEY UPDATE;
  UPDATE "User" u SET "viewTotal" = u."viewTotal" + (d->>'views')::int
    FROM jsonb_array_elements(deltas) d
    WHERE u."id" = (d->>'userId')::int;
END $$;

CREATE FUNCTION "user_view_total_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "user_view_total_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('userId', s."userId", 'views', s.views))
    FROM (SELECT n."userId", SUM(n."count") AS views FROM new_rows n
          JOIN "Model" m ON m."id" = n."modelId" AND m."deletedAt" IS NULL
          WHERE n."userId" IS NOT NULL GROUP BY n."userId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE FUNCTION "user_view_total_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "user_view_total_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('userId', s."userId", 'views', s.views))
    FROM (SELECT c."userId", SUM(c.views) AS views FROM (
            SELECT n."userId", n."count" AS views, n."modelId" FROM new_rows n
            UNION ALL
            SELECT o."userId", -o."count", o."modelId" FROM old_rows o
          ) c JOIN "Model" m ON m."id" = c."modelId" AND m."deletedAt" IS NULL
          WHERE c."userId" IS NOT NULL GROUP BY c."userId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE FUNCTION "user_view_total_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "user_view_total_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('userId', s."userId", 'views', -s.views))
    FROM (SELECT o."userId", SUM(o."count") AS views FROM old_rows o
          JOIN "Model" m ON m."id" = o."modelId" AND m."deletedAt" IS NULL
          WHERE o."userId" IS NOT NULL GROUP BY o."userId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE TRIGGER "ModelViewDaily_user_view_total_insert" AFTER INSERT ON "ModelViewDaily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_view_total_after_insert"();
CREATE TRIGGER "ModelViewDaily_user_view_total_update" AFTER UPDATE ON "ModelViewDaily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_view_total_after_update"();
CREATE TRIGGER "ModelViewDaily_user_view_total_delete" AFTER DELETE ON "ModelViewDaily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "user_view_total_after_delete"();

-- A model deleted (deletedAt set, or the row removed while live) takes its views out of its viewers'
-- totals; a deleted model restored (deletedAt cleared) puts them back.
CREATE FUNCTION "user_view_total_model_change"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  sign int;
  model int;
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD."deletedAt" IS NOT NULL THEN RETURN OLD; END IF;
    sign := -1; model := OLD."id";
  ELSIF OLD."deletedAt" IS NULL AND NEW."deletedAt" IS NOT NULL THEN
    sign := -1; model := NEW."id";
  ELSIF OLD."deletedAt" IS NOT NULL AND NEW."deletedAt" IS NULL THEN
    sign := 1; model := NEW."id";
  ELSE
    RETURN NEW;
  END IF;
  PERFORM "user_view_total_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('userId', s."userId", 'views', sign * s.views))
    FROM (SELECT v."userId", SUM(v."count") AS views FROM "ModelViewDaily" v
          WHERE v."modelId" = model AND v."userId" IS NOT NULL GROUP BY v."userId") s
    WHERE s.views <> 0), '[]'::jsonb));
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;

CREATE TRIGGER "Model_user_view_total_update" AFTER UPDATE OF "deletedAt" ON "Model"
  FOR EACH ROW EXECUTE FUNCTION "user_view_total_model_change"();
CREATE TRIGGER "Model_user_view_total_delete" BEFORE DELETE ON "Model"
  FOR EACH ROW EXECUTE FUNCTION "user_view_total_model_change"();

-- Backfill: every user's views of live models so far.
UPDATE "User" u SET "viewTotal" = s.views
FROM (SELECT v."userId", SUM(v."count")::int AS views FROM "ModelViewDaily" v
      JOIN "Model" m ON m."id" = v."modelId" AND m."deletedAt" IS NULL
      WHERE v."userId" IS NOT NULL GROUP BY v."userId") s
WHERE u."id" = s."userId";

-- The platform-wide name order (page N by name) read from an index.
CREATE INDEX "User_lower_name_id_idx" ON "User" (lower("name"), "id") WHERE "deletedAt" IS NULL;
