-- Every title an occupation is known by: its primary title, O*NET alternate and short titles
-- (with their source codes) and the sample of reported titles. A title listed twice for one
-- occupation and kind becomes one row with its sources merged. title_norm is the comparison
-- form produced by the shared normaliser (serve/text/normalize.ts).
CREATE TABLE occupation_titles AS
WITH raw AS (
  SELECT onet_code, 'primary' AS kind, title, 'occupation_data' AS source, NULL::BOOLEAN AS shown
  FROM stg.stg_onet__occupations
  UNION ALL
  SELECT onet_code, 'alternate', alternate_title, 'alternate_titles:' || coalesce(sources, ''), NULL
  FROM stg.stg_onet__alternate_titles
  UNION ALL
  SELECT onet_code, 'short', short_title, 'alternate_titles:' || coalesce(sources, ''), NULL
  FROM stg.stg_onet__alternate_titles
  WHERE short_title IS NOT NULL
  UNION ALL
  SELECT onet_code, 'reported', reported_title, 'reported_titles', shown_in_my_next_move
  FROM stg.stg_onet__reported_titles
),
merged AS (
  SELECT
    onet_code,
    kind,
    title,
    string_agg(DISTINCT source, ';' ORDER BY source) AS source,
    bool_or(shown) AS shown_in_my_next_move
  FROM raw
  GROUP BY onet_code, kind, title
)
SELECT
  (row_number() OVER (ORDER BY onet_code, kind, title))::INTEGER AS title_id,
  onet_code,
  kind,
  title,
  normalize_title(title) AS title_norm,
  source,
  shown_in_my_next_move
FROM merged
ORDER BY title_id;
