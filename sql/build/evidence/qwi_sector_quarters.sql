-- QWI beginning-of-quarter employment (Emp) per state, NAICS sector and quarter, from county
-- rows for all ages, sexes and ownerships, not seasonally adjusted: the sum of the county
-- values published with status flag 1 (ok), and how many county cells carry each flag. A
-- context series only: its geography and period are those of the snapshot.
CREATE TABLE qwi_sector_quarters AS
WITH cells AS (
  SELECT sha256, line, state, industry, year::INTEGER AS year, quarter::INTEGER AS quarter,
    TRY_CAST(emp AS BIGINT) AS emp, coalesce(semp, 'missing') AS flag
  FROM stg_qwi
  WHERE coalesce(agegrp, 'A00') = 'A00' AND coalesce(sex, '0') = '0'
    AND coalesce(ownercode, 'A00') = 'A00' AND coalesce(seasonadj, 'U') = 'U'
),
flags AS (
  SELECT sha256, state, industry, year, quarter, flag, count(*) AS n
  FROM cells GROUP BY ALL
),
flag_json AS (
  SELECT sha256, state, industry, year, quarter,
    '{' || string_agg('"' || flag || '":' || n, ',' ORDER BY flag) || '}' AS cells_by_flag
  FROM flags GROUP BY ALL
),
labels AS (
  SELECT industry, min(label) AS label FROM stg_labels GROUP BY industry
)
SELECT
  c.sha256,
  c.state,
  c.industry,
  coalesce(l.label, c.industry) AS industry_title,
  c.year,
  c.quarter,
  sum(c.emp) FILTER (WHERE c.flag = '1') AS employment_ok_counties,
  count(*)::INTEGER AS county_cells,
  j.cells_by_flag,
  min(c.line) AS first_line,
  max(c.line) AS last_line
FROM cells c
JOIN flag_json j USING (sha256, state, industry, year, quarter)
LEFT JOIN labels l ON l.industry = c.industry
GROUP BY c.sha256, c.state, c.industry, l.label, c.year, c.quarter, j.cells_by_flag
ORDER BY c.sha256, c.state, c.industry, c.year, c.quarter;
