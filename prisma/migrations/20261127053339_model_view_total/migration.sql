-- AlterTable
ALTER TABLE "Model" ADD COLUMN     "viewTotal" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "SupportRequest_subject_trgm_idx" ON "SupportRequest" USING GIN ("subject" gin_trgm_ops);

-- Model.viewTotal: every view of the model (every tenant's, every day's), kept in the same transaction
-- as every write of ModelViewDaily (the views flush, the direct path while Redis is down, seeds,
-- cascades) by statement-level triggers, like User.viewTotal (docs/lists-at-scale.md). The platform's
-- model grid reads it instead of summing every view-day per call. The models' rows are locked in id
-- order first, so concurrent flushes cannot deadlock on them. A model removed for good takes its rows
-- with it (the cascade's UPDATE finds no row to change).
CREATE FUNCTION "model_view_total_apply"(deltas jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM "Model" m
    WHERE m."id" IN (SELECT (d->>'modelId')::int FROM jsonb_array_elements(deltas) d)
    ORDER BY m."id" FOR NO KEY UPDATE;
  UPDATE "Model" m SET "viewTotal" = m."viewTotal" + (d->>'views')::int
    FROM jsonb_array_elements(deltas) d
    WHERE m."id" = (d->>'modelId')::int;
END $$;

CREATE FUNCTION "model_view_total_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "model_view_total_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('modelId', s."modelId", 'views', s.views))
    FROM (SELECT n."modelId", SUM(n."count") AS views FROM new_rows n GROUP BY n."modelId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE FUNCTION "model_view_total_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "model_view_total_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('modelId', s."modelId", 'views', s.views))
    FROM (SELECT c."modelId", SUM(c.views) AS views FROM (
            SELECT n."modelId", n."count" AS views FROM new_rows n
            UNION ALL
            SELECT o."modelId", -o."count" FROM old_rows o
          ) c GROUP BY c."modelId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE FUNCTION "model_view_total_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "model_view_total_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('modelId', s."modelId", 'views', -s.views))
    FROM (SELECT o."modelId", SUM(o."count") AS views FROM old_rows o GROUP BY o."modelId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE TRIGGER "ModelViewDaily_model_view_total_insert" AFTER INSERT ON "ModelViewDaily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "model_view_total_after_insert"();
CREATE TRIGGER "ModelViewDaily_model_view_total_update" AFTER UPDATE ON "ModelViewDaily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "model_view_total_after_update"();
CREATE TRIGGER "ModelViewDaily_model_view_total_delete" AFTER DELETE ON "ModelViewDaily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "model_view_total_after_delete"();

-- Backfill: every model's views so far.
UPDATE "Model" m SET "viewTotal" = s.views
FROM (SELECT v."modelId", SUM(v."count")::int AS views FROM "ModelViewDaily" v GROUP BY v."modelId") s
WHERE m."id" = s."modelId";

-- The platform users ordered by school name (/users): walk the tenants by name, then each tenant's
-- users, instead of joining and sorting every user.
CREATE INDEX "Tenant_lower_name_id_idx" ON "Tenant" (lower("name"), "id");
