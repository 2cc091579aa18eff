-- Occupations: one row per O*NET-SOC code with its SOC 2018 detailed code, major group and
-- job zone. has_data marks the data-level occupations (rated or with tasks); the others are
-- roll-up codes that O*NET lists without ratings.
CREATE TABLE occupations AS
SELECT
  o.onet_code,
  o.title,
  o.description,
  substr(o.onet_code, 1, 7) AS soc_code,
  substr(o.onet_code, 1, 2) AS major_group,
  z.job_zone,
  (z.job_zone IS NOT NULL OR o.onet_code IN (SELECT onet_code FROM stg.stg_onet__tasks)) AS has_data
FROM stg.stg_onet__occupations AS o
LEFT JOIN stg.stg_onet__job_zones AS z USING (onet_code)
ORDER BY o.onet_code;
