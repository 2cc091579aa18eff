-- check: importance is between 1 and 5
SELECT domain, onet_code, element_id, importance FROM occupation_ratings
WHERE importance NOT BETWEEN 1 AND 5;

-- check: level is between 0 and 7
SELECT domain, onet_code, element_id, level FROM occupation_ratings WHERE level NOT BETWEEN 0 AND 7;

-- check: each occupation, element and scale is rated at most once
SELECT 'skill' AS domain, onet_code, element_id, scale_id, count(*) AS n FROM stg.stg_onet__skills GROUP BY ALL HAVING count(*) > 1
UNION ALL
SELECT 'knowledge', onet_code, element_id, scale_id, count(*) FROM stg.stg_onet__knowledge GROUP BY ALL HAVING count(*) > 1
UNION ALL
SELECT 'ability', onet_code, element_id, scale_id, count(*) FROM stg.stg_onet__abilities GROUP BY ALL HAVING count(*) > 1
UNION ALL
SELECT 'work_activity', onet_code, element_id, scale_id, count(*) FROM stg.stg_onet__work_activities GROUP BY ALL HAVING count(*) > 1;

-- check: every rated element is in the content model
SELECT r.domain, r.onet_code, r.element_id FROM occupation_ratings AS r
ANTI JOIN content_model_elements AS e USING (element_id);
