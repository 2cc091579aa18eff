-- The SOC 2018 structure: major, minor, broad and detailed groups with titles, definitions on
-- detailed rows, and the codes of the groups above each row. SOC codes are ordered ranges, so
-- a row's minor (broad) group is the greatest minor (broad) code at or below it in its major
-- (minor) group: 15-1252 -> 15-1200, 15-1250; 11-3111 -> 11-3000, 11-3110.
CREATE TABLE soc_catalog AS
WITH rows AS (
  SELECT soc_code, lower(soc_group) AS level, soc_title AS title, soc_definition AS definition,
    substr(soc_code, 1, 2) || '-0000' AS major_code, sha256, line
  FROM stg_soc
),
minors AS (SELECT soc_code AS minor_code, major_code FROM rows WHERE level = 'minor'),
broads AS (SELECT soc_code AS broad_code FROM rows WHERE level = 'broad'),
with_minor AS (
  SELECT r.*, CASE WHEN r.level <> 'major' THEN m.minor_code END AS minor_code
  FROM rows r ASOF LEFT JOIN minors m ON r.major_code = m.major_code AND r.soc_code >= m.minor_code
)
SELECT
  w.soc_code,
  w.level,
  w.title,
  w.definition,
  w.major_code,
  w.minor_code,
  CASE WHEN w.level IN ('broad', 'detailed') THEN b.broad_code END AS broad_code,
  w.sha256 AS source_sha256,
  w.line
FROM with_minor w
ASOF LEFT JOIN broads b ON w.soc_code >= b.broad_code
ORDER BY w.soc_code;
