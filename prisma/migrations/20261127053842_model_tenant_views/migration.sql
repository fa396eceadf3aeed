-- CreateTable
CREATE TABLE "ModelTenantView" (
    "modelId" INTEGER NOT NULL,
    "tenantId" INTEGER NOT NULL,
    "views" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "ModelTenantView_pkey" PRIMARY KEY ("modelId","tenantId")
);

-- CreateIndex
CREATE INDEX "ModelTenantView_modelId_views_tenantId_idx" ON "ModelTenantView"("modelId", "views" DESC, "tenantId");

-- CreateIndex
CREATE INDEX "ModelTenantView_tenantId_idx" ON "ModelTenantView"("tenantId");

-- AddForeignKey
ALTER TABLE "ModelTenantView" ADD CONSTRAINT "ModelTenantView_modelId_fkey" FOREIGN KEY ("modelId") REFERENCES "Model"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ModelTenantView" ADD CONSTRAINT "ModelTenantView_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ModelTenantView: each model's views per tenant, kept in the same transaction as every write of
-- ModelViewDaily by statement-level triggers (docs/lists-at-scale.md). Each statement's rows are
-- summed per (model, tenant) and added in key order, so concurrent flushes cannot deadlock here.
-- Rows of a model or tenant removed in the same statement's cascade are skipped (their own rows here
-- go with the cascade).
CREATE FUNCTION "model_tenant_views_apply"(deltas jsonb) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "ModelTenantView" ("modelId", "tenantId", "views")
  SELECT d."modelId", d."tenantId", d.views
  FROM (SELECT (x->>'modelId')::int AS "modelId", (x->>'tenantId')::int AS "tenantId",
               (x->>'views')::int AS views
        FROM jsonb_array_elements(deltas) x) d
  WHERE EXISTS (SELECT 1 FROM "Model" m WHERE m."id" = d."modelId")
    AND EXISTS (SELECT 1 FROM "Tenant" t WHERE t."id" = d."tenantId")
  ORDER BY d."modelId", d."tenantId"
  ON CONFLICT ("modelId", "tenantId") DO UPDATE SET "views" = "ModelTenantView"."views" + EXCLUDED."views";
END $$;

CREATE FUNCTION "model_tenant_views_after_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "model_tenant_views_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('modelId', s."modelId", 'tenantId', s."tenantId", 'views', s.views))
    FROM (SELECT n."modelId", n."tenantId", SUM(n."count") AS views FROM new_rows n
          GROUP BY n."modelId", n."tenantId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE FUNCTION "model_tenant_views_after_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "model_tenant_views_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('modelId', s."modelId", 'tenantId', s."tenantId", 'views', s.views))
    FROM (SELECT c."modelId", c."tenantId", SUM(c.views) AS views FROM (
            SELECT n."modelId", n."tenantId", n."count" AS views FROM new_rows n
            UNION ALL
            SELECT o."modelId", o."tenantId", -o."count" FROM old_rows o
          ) c GROUP BY c."modelId", c."tenantId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE FUNCTION "model_tenant_views_after_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM "model_tenant_views_apply"(COALESCE((
    SELECT jsonb_agg(jsonb_build_object('modelId', s."modelId", 'tenantId', s."tenantId", 'views', -s.views))
    FROM (SELECT o."modelId", o."tenantId", SUM(o."count") AS views FROM old_rows o
          GROUP BY o."modelId", o."tenantId") s
    WHERE s.views <> 0), '[]'::jsonb));
  RETURN NULL;
END $$;

CREATE TRIGGER "ModelViewDaily_model_tenant_views_insert" AFTER INSERT ON "ModelViewDaily"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "model_tenant_views_after_insert"();
CREATE TRIGGER "ModelViewDaily_model_tenant_views_update" AFTER UPDATE ON "ModelViewDaily"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "model_tenant_views_after_update"();
CREATE TRIGGER "ModelViewDaily_model_tenant_views_delete" AFTER DELETE ON "ModelViewDaily"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "model_tenant_views_after_delete"();

-- Backfill: every model's views per tenant so far.
INSERT INTO "ModelTenantView" ("modelId", "tenantId", "views")
SELECT v."modelId", v."tenantId", SUM(v."count")::int FROM "ModelViewDaily" v GROUP BY v."modelId", v."tenantId";
