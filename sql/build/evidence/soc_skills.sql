-- The most important skills of each detailed SOC code: those of its primary O*NET-SOC
-- occupation (the .00 code when it is rated, else the lowest rated code), by O*NET importance
-- (IM, 1-5), then element id; suppressed and not-relevant ratings left out; at most 10.
CREATE TABLE soc_skills AS
WITH rated AS (
  SELECT DISTINCT s.soc_code, r.onet_code
  FROM soc_onet s JOIN tax.occupation_ratings r USING (onet_code)
  WHERE r.domain = 'skill' AND r.importance IS NOT NULL
),
primary_code AS (
  SELECT soc_code, coalesce(
    max(onet_code) FILTER (WHERE onet_code = soc_code || '.00'), min(onet_code)) AS onet_code
  FROM rated GROUP BY soc_code
),
ranked AS (
  SELECT p.soc_code, r.onet_code, r.element_id, r.element_name AS name,
    round(r.importance, 2) AS importance, round(r.level, 2) AS level,
    row_number() OVER (PARTITION BY p.soc_code ORDER BY r.importance DESC, r.element_id) AS rank
  FROM primary_code p JOIN tax.occupation_ratings r USING (onet_code)
  WHERE r.domain = 'skill' AND r.importance IS NOT NULL
    AND NOT r.recommend_suppress AND NOT r.not_relevant
)
SELECT soc_code, rank::INTEGER AS rank, onet_code, element_id, name, importance, level
FROM ranked WHERE rank <= 10
ORDER BY soc_code, rank;
