-- Skills, knowledge, abilities and work activities of each occupation with importance (IM,
-- 1-5) and level (LV, 0-7) side by side. Abilities and work activities are empty when the
-- release extract lacks their files; the manifest records them as absent.
CREATE TABLE occupation_ratings AS
WITH r AS (
  SELECT 'skill' AS domain, * FROM stg.stg_onet__skills
  UNION ALL BY NAME
  SELECT 'knowledge' AS domain, * FROM stg.stg_onet__knowledge
  UNION ALL BY NAME
  SELECT 'ability' AS domain, * FROM stg.stg_onet__abilities
  UNION ALL BY NAME
  SELECT 'work_activity' AS domain, * FROM stg.stg_onet__work_activities
)
SELECT
  domain,
  onet_code,
  element_id,
  min(element_name) AS element_name,
  max(data_value) FILTER (WHERE scale_id = 'IM') AS importance,
  max(data_value) FILTER (WHERE scale_id = 'LV') AS level,
  max(n) FILTER (WHERE scale_id = 'IM') AS importance_n,
  max(n) FILTER (WHERE scale_id = 'LV') AS level_n,
  coalesce(bool_or(recommend_suppress), false) AS recommend_suppress,
  coalesce(bool_or(not_relevant), false) AS not_relevant,
  max(rating_date) FILTER (WHERE scale_id = 'IM') AS rating_date,
  min(domain_source) AS domain_source
FROM r
GROUP BY domain, onet_code, element_id
ORDER BY domain, onet_code, element_id;
