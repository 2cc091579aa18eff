-- Distinct jobs mentioning each term, per scope and country ('' = all countries), and their
-- share of the distinct jobs in that scope and country, in percent (0-100, 2 decimals).
CREATE TABLE market_term_counts AS
WITH scoped AS (
  SELECT 'active' AS scope, job_id, country FROM market_jobs WHERE active
  UNION ALL
  SELECT 'historical' AS scope, job_id, country FROM market_jobs WHERE historical
),
counted AS (
  SELECT
    s.scope,
    CASE WHEN grouping(s.country) = 1 THEN '' ELSE s.country END AS country,
    grouping(s.country) AS all_countries,
    t.term_type,
    t.term_id,
    count(*)::BIGINT AS job_count
  FROM scoped s
  JOIN market_job_terms t USING (job_id)
  GROUP BY GROUPING SETS ((s.scope, s.country, t.term_type, t.term_id), (s.scope, t.term_type, t.term_id))
)
SELECT
  c.scope,
  c.country,
  c.term_type,
  c.term_id,
  d.term_name,
  c.job_count,
  round(100.0 * c.job_count / s.jobs, 2) AS percentage
FROM counted c
JOIN market_scope_totals s ON s.scope = c.scope AND s.country = c.country
JOIN market_terms d ON d.term_type = c.term_type AND d.term_id = c.term_id
WHERE c.all_countries = 1 OR c.country IS NOT NULL
ORDER BY c.scope, c.country, c.term_type, c.term_id;
