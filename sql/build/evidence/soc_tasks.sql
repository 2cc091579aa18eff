-- Tasks of each detailed SOC code: those of its primary O*NET-SOC occupation (the .00 code
-- when it has tasks, else the lowest code with tasks), core tasks first, then by task id (the
-- snapshot has no task ratings to order by); at most 10.
CREATE TABLE soc_tasks AS
WITH with_tasks AS (
  SELECT DISTINCT s.soc_code, t.onet_code
  FROM soc_onet s JOIN tax.tasks t USING (onet_code)
),
primary_code AS (
  SELECT soc_code, coalesce(
    max(onet_code) FILTER (WHERE onet_code = soc_code || '.00'), min(onet_code)) AS onet_code
  FROM with_tasks GROUP BY soc_code
),
ranked AS (
  SELECT p.soc_code, t.onet_code, t.task_id, t.task, t.task_type,
    row_number() OVER (PARTITION BY p.soc_code
      ORDER BY CASE t.task_type WHEN 'core' THEN 0 WHEN 'supplemental' THEN 1 ELSE 2 END,
        t.task_id) AS rank
  FROM primary_code p JOIN tax.tasks t USING (onet_code)
)
SELECT soc_code, rank::INTEGER AS rank, onet_code, task_id::INTEGER AS task_id, task, task_type
FROM ranked WHERE rank <= 10
ORDER BY soc_code, rank;
