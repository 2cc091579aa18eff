-- Distinct jobs per scope and country ('' = all countries; jobs whose country is unknown count
-- only there), with remote and hybrid counts. Remote rate = remote_jobs / jobs.
CREATE TABLE market_scope_totals AS
WITH scoped AS (
  SELECT 'active' AS scope, * FROM market_jobs WHERE active
  UNION ALL
  SELECT 'historical' AS scope, * FROM market_jobs WHERE historical
),
grouped AS (
  SELECT
    scope,
    CASE WHEN grouping(country) = 1 THEN '' ELSE country END AS country,
    grouping(country) AS all_countries,
    count(*)::BIGINT AS jobs,
    (count(*) FILTER (WHERE remote))::BIGINT AS remote_jobs,
    (count(*) FILTER (WHERE hybrid))::BIGINT AS hybrid_jobs,
    sum(postings)::BIGINT AS postings
  FROM scoped
  GROUP BY GROUPING SETS ((scope, country), (scope))
)
SELECT scope, country, jobs, remote_jobs, hybrid_jobs, postings
FROM grouped
WHERE all_countries = 1 OR country IS NOT NULL
ORDER BY scope, country;
