-- The viewer's "View in AR" feature (flag `ar`, docs/ar.md). A link made with every feature on (all
-- 13 flags other than the exclusive background / background_color pair) gets it too; a link made
-- with features switched off keeps exactly what its owner chose.
UPDATE "EmbedToken"
SET "settings" = array_append("settings", 'ar')
WHERE NOT ('ar' = ANY("settings"))
  AND "settings" @> ARRAY['info', 'draw', 'play', 'labels', 'labels_ui', 'layers', 'full_screen',
    'zoom_controls', 'table_of_content', 'center_model', 'hide_modal', 'desktop_view', 'animate']::text[];
