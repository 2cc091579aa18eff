-- Where each detailed SOC code is published in each OEWS file. 'exact': under its own code.
-- 'aggregate': OEWS publishes it only inside one combined row of its broad group, either the
-- broad code itself (13-2022 in 13-2020) or an OEWS-specific code (21-1014 in 21-1018); that
-- row is the one 'detailed' row of the broad group that is not itself a SOC detailed code. A
-- code with neither (military occupations, for one) is not published in that file.
CREATE TABLE oews_publication AS
WITH published AS (
  SELECT DISTINCT sha256, occ_code, occ_title FROM oews_estimates WHERE o_group = 'detailed'
),
detailed AS (SELECT soc_code, broad_code FROM soc_catalog WHERE level = 'detailed'),
exact AS (
  SELECT p.sha256, d.soc_code, p.occ_code, p.occ_title, 'exact' AS relation
  FROM detailed d JOIN published p ON p.occ_code = d.soc_code
),
unpublished AS (
  SELECT f.sha256, d.soc_code, d.broad_code
  FROM (SELECT DISTINCT sha256 FROM published) f CROSS JOIN detailed d
  WHERE NOT EXISTS (SELECT 1 FROM exact e WHERE e.sha256 = f.sha256 AND e.soc_code = d.soc_code)
),
aggregates AS (
  SELECT sha256, occ_code, occ_title, substr(occ_code, 1, 6) || '0' AS broad_code
  FROM published WHERE occ_code NOT IN (SELECT soc_code FROM detailed)
),
matched AS (
  SELECT u.sha256, u.soc_code, a.occ_code, a.occ_title, 'aggregate' AS relation,
    count(*) OVER (PARTITION BY u.sha256, u.soc_code) AS candidates
  FROM unpublished u JOIN aggregates a ON a.sha256 = u.sha256 AND a.broad_code = u.broad_code
)
SELECT sha256, soc_code, occ_code, occ_title, relation FROM exact
UNION ALL
SELECT sha256, soc_code, occ_code, occ_title, relation FROM matched WHERE candidates = 1
ORDER BY sha256, soc_code;
